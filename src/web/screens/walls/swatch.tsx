/** A hold colour's sample beside its word; striped when the colour is not known. */
export function Swatch({ hex }: { hex: string | null }) {
  return hex === null ? (
    <span class="swatch-dot none" aria-hidden="true" />
  ) : (
    <span class="swatch-dot" style={{ background: hex }} aria-hidden="true" />
  )
}
