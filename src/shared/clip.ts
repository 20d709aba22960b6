/**
 * Request text (header values, paths) shortened before it is echoed into an answer, a log
 * line or a key: what a client sends must not size what Ferry sends back or keeps.
 */
export const CLIP_CHARS = 256

export function clip(text: string, max = CLIP_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}...(${text.length - max} more)`
}
