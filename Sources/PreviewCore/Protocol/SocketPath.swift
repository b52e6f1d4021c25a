/// Where previewd listens and previewctl connects, resolved the same way
/// by both: `--socket`, else `$PREVIEWD_SOCKET`, else
/// `$XDG_RUNTIME_DIR/previewd/socket`, else `/tmp/previewd-UID/socket`.
public enum SocketPath {
    /// - Parameters:
    ///   - explicit: the `--socket` value, if given.
    ///   - environment: looks up an environment variable.
    ///   - uid: the user's id, for the fallback without a runtime directory.
    public static func resolve(explicit: String?, environment: (String) -> String?, uid: UInt32) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnv = environment("PREVIEWD_SOCKET"), !fromEnv.isEmpty { return fromEnv }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty { return runtime + "/previewd/socket" }
        return "/tmp/previewd-\(uid)/socket"
    }
}
