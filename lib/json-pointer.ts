// A segment of a JSON pointer (RFC 6901) as the name it stands for: validators report where a value is as a pointer
// (`/body/headers/X~1a` for the header `X/a`), and an error detail names the field itself.

/** `~1` back to `/` and `~0` back to `~`, in that order. */
export const pointerSegmentName = (segment: string): string => segment.replaceAll('~1', '/').replaceAll('~0', '~');
