import Glibc
import PreviewCore

/// ITU-R BS.1770-4 integrated loudness with EBU R128's gating, and the
/// sample peak, of a whole song's interleaved s16 PCM (mono or stereo), as
/// libebur128 (`LoudnessMeter`) reports them, at a fraction of its cost:
/// the song is cut into `lanes` segments filtered side by side in SIMD
/// lanes (each segment starts 0.1 s early, so its K-weighting
/// filter has settled when its own frames begin; the first starts from
/// silence, as a stream does). The figures agree with libebur128's within
/// 0.001 LU on the corpus (PreviewAudioTests).
enum KWeightedMeter {
    /// Segments filtered at once: 4 segments x 2 channels fill a SIMD8.
    static let lanes = 4

    /// The loudness of `pcm` in `format`; nil for more than 2 channels
    /// (the caller meters those with libebur128), no complete 400 ms
    /// block, or a format BS.1770 cannot filter.
    static func loudness(of pcm: UnsafeRawBufferPointer, format: AudioFormat) -> Loudness? {
        guard (1...2).contains(format.channels), format.sampleRate >= 8000 else { return nil }
        let frames = pcm.count / format.bytesPerFrame
        // libebur128's 100 ms: (rate + 5) / 10 frames; blocks are 4 of them.
        let sub = (format.sampleRate + 5) / 10
        let subBlocks = frames / sub
        guard subBlocks >= 4 else { return nil }
        let samples = pcm.bindMemory(to: Int16.self)
        let (energies, peak) = filter(
            samples, frames: frames, channels: format.channels, sub: sub, subBlocks: subBlocks,
            filter: KWeighting(sampleRate: Double(format.sampleRate)))
        // 400 ms blocks every 100 ms, their mean square over the block.
        let blocks = (0...(subBlocks - 4)).map { k in (energies[k] + energies[k + 1] + energies[k + 2] + energies[k + 3]) / Double(4 * sub)
        }
        func lufs(_ z: Double) -> Double { -0.691 + 10 * log10(z) }
        let absolute = blocks.filter { $0 > 0 && lufs($0) > -70 }
        guard !absolute.isEmpty else {
            return Loudness(integrated: -.infinity, peak: peak, seconds: Double(frames) / Double(format.sampleRate))
        }
        let relative = lufs(absolute.reduce(0, +) / Double(absolute.count)) - 10
        let gated = absolute.filter { lufs($0) > relative }
        return Loudness(
            integrated: lufs(gated.reduce(0, +) / Double(gated.count)), peak: peak,
            seconds: Double(frames) / Double(format.sampleRate))
    }

    /// The K-weighted energy of each 100 ms sub-block (channels summed,
    /// weight 1 each, samples scaled to ±1), and the sample peak (±1).
    private static func filter(
        _ samples: UnsafeBufferPointer<Int16>, frames: Int, channels: Int, sub: Int, subBlocks: Int,
        filter k: KWeighting
    ) -> ([Double], Double) {
        // Each segment is filtered one sub-block (0.1 s) before its own
        // frames: the K-weighting's slowest pole (its 38 Hz high-pass)
        // decays by far more than the 16-bit range in that time.
        let warm = sub
        // Segments of whole sub-blocks, the last one shorter (zeros past the end).
        let perLane = (subBlocks + lanes - 1) / lanes
        let length = perLane * sub
        var energies = [Double](repeating: 0, count: perLane * lanes)
        var s1 = SIMD8<Double>(repeating: 0), s2 = s1, t1 = s1, t2 = s1
        var energy = SIMD8<Double>(repeating: 0)
        let scale = 1.0 / 32768
        let right = channels == 2 ? 1 : 0
        // Steps where every lane's frame is inside the song need no checks:
        // from the warm-up's end (lane 0 starts at frame 0) until the last
        // lane runs out of frames.
        let inside = warm..<max(warm, min(warm + length, frames - (lanes - 1) * length + warm))
        for t in 0..<(warm + length) {
            var x = SIMD8<Double>(repeating: 0)
            if inside.contains(t) {
                for lane in 0..<lanes {
                    let i = (lane * length - warm + t) * channels
                    x[2 * lane] = Double(samples[i])
                    x[2 * lane + 1] = Double(samples[i + right]) * Double(right)
                }
            } else {
                for lane in 0..<lanes {
                    let frame = lane * length - warm + t
                    guard frame >= 0, frame < frames else { continue }
                    x[2 * lane] = Double(samples[frame * channels])
                    x[2 * lane + 1] = Double(samples[frame * channels + right]) * Double(right)
                }
            }
            x *= scale
            // The shelf, then the high-pass: two biquads, transposed direct form II.
            let y1 = k.b0 * x + s1
            s1 = k.b1 * x - k.a1 * y1 + s2
            s2 = k.b2 * x - k.a2 * y1
            let y = k.c0 * y1 + t1
            t1 = k.c1 * y1 - k.d1 * y + t2
            t2 = k.c2 * y1 - k.d2 * y
            guard t >= warm else { continue }
            energy += y * y
            if (t - warm + 1) % sub == 0 {
                let j = (t - warm + 1) / sub - 1
                for lane in 0..<lanes { energies[lane * perLane + j] = energy[2 * lane] + energy[2 * lane + 1] }
                energy = SIMD8<Double>(repeating: 0)
            }
        }
        // The sample peak in one pass of its own, which vectorizes.
        var high: Int16 = 0, low: Int16 = 0
        for v in samples[0..<(frames * channels)] {
            high = max(high, v)
            low = min(low, v)
        }
        let peak = max(Int32(high), -Int32(low))
        return (Array(energies.prefix(subBlocks)), Double(peak) * scale)
    }

    /// BS.1770's K-weighting for a sample rate: its high shelf (stage 1) and
    /// its high-pass (stage 2), from the filters' analog prototypes as
    /// libebur128 derives them for rates other than 48 kHz.
    struct KWeighting {
        let b0, b1, b2, a1, a2: Double
        let c0, c1, c2, d1, d2: Double

        init(sampleRate fs: Double) {
            let f0 = 1681.974450955533, gain = 3.999843853973347, q = 0.7071752369554196
            let k = tan(Double.pi * f0 / fs)
            let vh = pow(10, gain / 20)
            let vb = pow(vh, 0.4996667741545416)
            let a0 = 1 + k / q + k * k
            b0 = (vh + vb * k / q + k * k) / a0
            b1 = 2 * (k * k - vh) / a0
            b2 = (vh - vb * k / q + k * k) / a0
            a1 = 2 * (k * k - 1) / a0
            a2 = (1 - k / q + k * k) / a0
            let hf0 = 38.13547087602444, hq = 0.5003270373238773
            let hk = tan(Double.pi * hf0 / fs)
            let h0 = 1 + hk / hq + hk * hk
            (c0, c1, c2) = (1, -2, 1)
            d1 = 2 * (hk * hk - 1) / h0
            d2 = (1 - hk / hq + hk * hk) / h0
        }
    }
}
