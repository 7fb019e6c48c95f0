// Files embedded in the executable with `import x from '...' with { type: 'file' }` resolve to a path.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}
// The browsable API page's script and stylesheet, embedded as text (`with { type: 'text' }`).
declare module '*/browsable-page.js' {
  const text: string
  export default text
}
declare module '*/browsable-page.css' {
  const text: string
  export default text
}
