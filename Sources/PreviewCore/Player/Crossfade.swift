import Glibc

/// MPD's equal-power crossfade: over an overlap of `length` frames, the
/// outgoing song is scaled by cos(π/2 · i/length) and the incoming one by
/// sin(π/2 · i/length) at overlap frame i, and the two are summed, rounded
/// to the nearest integer and clamped to s16; the sum of the squares of
/// the two scales is 1, so the loudness holds through the fade.
public enum Crossfade {
    /// Longest overlap taken, in seconds (a preview lasts 30).
    public static let maxSeconds = 10

    /// `seconds` held within 0...`maxSeconds` (a value from a state file).
    public static func clamped(_ seconds: Int) -> Int { max(0, min(maxSeconds, seconds)) }

    /// The two scales at overlap frame `index` of `length` (outgoing, incoming).
    public static func weights(at index: Int, of length: Int) -> (out: Double, in: Double) {
        guard length > 0, index < length else { return (0, 1) }
        let angle = Double.pi / 2 * Double(max(index, 0)) / Double(length)
        return (cos(angle), sin(angle))
    }

    /// One mixed sample: `outgoing` and `incoming` scaled by `w` and summed.
    public static func mix(_ outgoing: Int16, _ incoming: Int16, _ w: (out: Double, in: Double)) -> Int16 {
        let sum = (Double(outgoing) * w.out + Double(incoming) * w.in).rounded()
        return Int16(max(-32768, min(32767, sum)))
    }
}
