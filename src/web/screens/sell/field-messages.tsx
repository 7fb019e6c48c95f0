/** A part of the form's messages, in plain words, announced as they appear. */
export function FieldMessages({ messages }: { messages: readonly string[] | undefined }) {
  if (!messages || messages.length === 0) return null
  return (
    <ul class="error field-errors" role="status">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  )
}
