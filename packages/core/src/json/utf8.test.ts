import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUtf8 } from "./utf8.js";

describe("decodeUtf8", () => {
  it("decodes valid UTF-8 and drops a leading byte-order mark", () => {
    expect(decodeUtf8(Buffer.from("résumé 报告 😀"))).toBe("résumé 报告 😀");
    expect(decodeUtf8(Buffer.from("\uFEFF{}"))).toBe("{}");
  });

  it("turns each byte that is not UTF-8 into a lone surrogate, keeping the text around it", () => {
    // é in Latin-1, a stray continuation byte, a truncated 3-byte sequence, an overlong "/", an encoded surrogate.
    const bytes = Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from(" é "), Buffer.from([0x80, 0xe2, 0x82, 0x20, 0xc0, 0xaf, 0xed, 0xa0, 0x80])]);
    expect(decodeUtf8(bytes)).toBe("caf\udce9 é \udc80\udce2\udc82 \udcc0\udcaf\udced\udca0\udc80");
  });

  it("keeps a byte-order mark's absence and presence consistent when the rest is not UTF-8", () => {
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d]))).toBe("{\udcff}");
  });

  it("round-trips every valid string and never loses a byte of an invalid one", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(decodeUtf8(Buffer.from(text))).toBe(text.startsWith("\uFEFF") ? text.slice(1) : text);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = decodeUtf8(bytes);
        // Re-encoding each escaped byte as itself gives the input back.
        const back = Buffer.concat(
          Array.from(text, (char) => {
            const code = char.charCodeAt(0);
            return char.length === 1 && code >= 0xdc80 && code <= 0xdcff ? Buffer.from([code - 0xdc00]) : Buffer.from(char);
          }),
        );
        const withoutBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
        expect(back.equals(Buffer.from(withoutBom))).toBe(true);
      }),
    );
  });
});
