import PreviewCore
import PreviewPlatform

extension HTTPCredentials {
    /// What every password-guarded listener of previewd's asks for
    /// (previewweb beyond loopback, previewd's HTTP stream beyond
    /// loopback): user `previewd` in realm `previewd`, and the password on
    /// the first line of the file at `path` (`WebOptions.password(fromFile:)`).
    /// - Returns: the credentials, and whether users other than the owner
    ///   may read the file (worth a warning: `chmod 600`).
    /// - Throws: a line saying why the file gives no password (missing,
    ///   unreadable, an empty or malformed first line), without the path.
    public static func fromPasswordFile(_ path: String) throws(PasswordFileError) -> (HTTPCredentials, readableByOthers: Bool) {
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(path) } catch { throw PasswordFileError(reason: "\(error)") }
        guard let bytes else { throw PasswordFileError(reason: "no such file") }
        let password: String
        do { password = try WebOptions.password(fromFile: bytes) } catch { throw PasswordFileError(reason: error.message) }
        let mode = FileSystem.permissions(path) ?? 0
        return (HTTPCredentials(realm: "previewd", user: "previewd", password: password), mode & 0o077 != 0)
    }
}

/// Why a password file gives no password.
public struct PasswordFileError: Error, Sendable {
    /// One line, without the file's path.
    public let reason: String
}
