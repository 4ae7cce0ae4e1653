import { Buffer, isAscii, isUtf8 } from "node:buffer";

const BOM = "\uFEFF";

/** Removes a leading byte-order mark, which editors and some shells add. */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * Decodes input bytes as UTF-8. A byte that is not part of valid UTF-8 becomes the
 * lone surrogate U+DC00 + byte (Python's "surrogateescape"), so that parseReturn can
 * say where the input stopped being text: a replacement character would hide it,
 * since valid text may hold U+FFFD but never a lone surrogate. A leading byte-order
 * mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  // Node's own checks (SIMD) and decoding for text that is valid throughout, the usual case:
  // no TextDecoder to create, and ASCII needs no decoding at all.
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buffer)) return buffer.toString("latin1");
  if (isUtf8(buffer)) return stripBom(buffer.toString("utf8"));
  // One UTF-16 unit per byte at most: a 4-byte sequence becomes a pair.
  const units = new Uint16Array(bytes.length);
  let count = 0;
  const at = (index: number): number => bytes[index] ?? 0;
  for (let i = at(0) === 0xef && at(1) === 0xbb && at(2) === 0xbf ? 3 : 0; i < bytes.length; ) {
    const lead = at(i);
    const length = utf8SequenceLength(bytes, i);
    if (length === 0) {
      units[count++] = 0xdc00 + lead;
      i += 1;
    } else if (length === 4) {
      const point = (((lead & 0x07) << 18) | ((at(i + 1) & 0x3f) << 12) | ((at(i + 2) & 0x3f) << 6) | (at(i + 3) & 0x3f)) - 0x10000;
      units[count++] = 0xd800 + (point >> 10);
      units[count++] = 0xdc00 + (point & 0x3ff);
      i += 4;
    } else {
      units[count++] =
        length === 1 ? lead : length === 2 ? ((lead & 0x1f) << 6) | (at(i + 1) & 0x3f) : ((lead & 0x0f) << 12) | ((at(i + 1) & 0x3f) << 6) | (at(i + 2) & 0x3f);
      i += length;
    }
  }
  const parts: string[] = [];
  for (let start = 0; start < count; start += 8192) parts.push(String.fromCharCode(...units.subarray(start, Math.min(count, start + 8192))));
  return parts.join("");
}

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629's table), or 0. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] ?? 0;
  if (lead < 0x80) return 1;
  const continues = (offset: number, low = 0x80, high = 0xbf): boolean => {
    const byte = bytes[i + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return continues(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0 would be an overlong encoding below A0; ED A0 and above are surrogates.
    return continues(1, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf) && continues(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    // F0 below 90 is overlong; F4 90 and above is past U+10FFFF.
    return continues(1, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf) && continues(2) && continues(3) ? 4 : 0;
  }
  return 0;
}
