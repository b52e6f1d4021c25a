import PreviewCore
import PreviewPlayback

/// The last `status` reply, kept while nothing it shows changed: status
/// bars and scripts ask far more often than anything changes (a pipelined
/// burst of `status` is answered from this copy).
final class StatusCache {
    private var cached: (key: PlayerController.StatusKey, bytes: [UInt8])?

    /// The reply for `key`: the kept bytes when the key is the same, else
    /// the reply `build` writes (then kept).
    func reply(for key: PlayerController.StatusKey, build: (inout Reply) -> Void) -> [UInt8] {
        if let cached, cached.key == key { return cached.bytes }
        var reply = Reply()
        build(&reply)
        cached = (key, reply.bytes)
        return reply.bytes
    }
}
