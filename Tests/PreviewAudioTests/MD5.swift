/// RFC 1321 MD5, only to compare decoded PCM with manifest.tsv's md5 column
/// (the toolchain on Linux has no digest API).
struct MD5 {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let s: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]
    private static let k: [UInt32] = (0..<64).map { i in
        var x = abs(sin(Double(i + 1))) * 4294967296.0
        x.round(.down)
        return UInt32(x)
    }

    mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        length += UInt64(bytes.count)
        buffer.append(contentsOf: bytes)
        var offset = 0
        while buffer.count - offset >= 64 {
            block(buffer[offset..<(offset + 64)])
            offset += 64
        }
        buffer.removeFirst(offset)
    }

    private mutating func block(_ chunk: ArraySlice<UInt8>) {
        var m = [UInt32](repeating: 0, count: 16)
        let base = chunk.startIndex
        for i in 0..<16 {
            m[i] =
                UInt32(chunk[base + 4 * i]) | UInt32(chunk[base + 4 * i + 1]) << 8
                | UInt32(chunk[base + 4 * i + 2]) << 16 | UInt32(chunk[base + 4 * i + 3]) << 24
        }
        var (a, b, c, d) = state
        for i in 0..<64 {
            var f: UInt32
            let g: Int
            switch i {
            case 0..<16: f = (b & c) | (~b & d); g = i
            case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * i) % 16
            }
            f = f &+ a &+ MD5.k[i] &+ m[g]
            a = d; d = c; c = b
            b = b &+ ((f << MD5.s[i]) | (f >> (32 - MD5.s[i])))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }

    mutating func hexDigest() -> String {
        let bits = length &* 8
        var pad: [UInt8] = [0x80]
        while (buffer.count + pad.count) % 64 != 56 { pad.append(0) }
        for i in 0..<8 { pad.append(UInt8((bits >> (8 * UInt64(i))) & 0xff)) }
        let savedLength = length
        update(pad)
        length = savedLength
        var out = ""
        for word in [state.0, state.1, state.2, state.3] {
            for i in 0..<4 {
                let byte = UInt8((word >> (8 * UInt32(i))) & 0xff)
                out += (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return out
    }
}

import Glibc
