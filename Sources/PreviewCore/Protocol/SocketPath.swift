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
        if let runtime = runtimeDirectory(environment: environment) { return runtime + "/socket" }
        return privateDirectory(uid: uid) + "/socket"
    }

    /// `$XDG_RUNTIME_DIR/previewd`, or nil without a runtime directory.
    public static func runtimeDirectory(environment: (String) -> String?) -> String? {
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return runtime + "/previewd"
    }

    /// `/tmp/previewd-UID`: the fallback's directory, which anyone could
    /// have made first, so both ends check it (`PrivateDirectory.check`).
    public static func privateDirectory(uid: UInt32) -> String { "/tmp/previewd-\(uid)" }

    /// The directory holding `path` (nil for a bare name).
    public static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }
}
