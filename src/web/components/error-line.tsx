/** What went wrong, in words, announced as it appears; nothing while all is well. */
export function ErrorLine({ message }: { message: string | null }) {
  if (message === null || message === '') return null
  return (
    <p class="error" role="alert">
      {message}
    </p>
  )
}
