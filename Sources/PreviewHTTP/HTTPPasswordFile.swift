import PreviewCore
import PreviewPlatform

extension HTTPCredentials {
    /// What every password-guarded listener of previewd's asks for
    /// (previewweb beyond loopback, previewd's HTTP stream beyond
    /// loopback): user `previewd` in realm `previewd`, and the password on
    /// the first line of the file at `path` (`password(fromFile:)`).
    /// - Returns: the credentials, and whether users other than the owner
    ///   may read the file (worth a warning: `chmod 600`).
    /// - Throws: a line saying why the file gives no password (missing,
    ///   unreadable, an empty or malformed first line), without the path.
    public static func fromPasswordFile(_ path: String) throws(PasswordFileError) -> (HTTPCredentials, readableByOthers: Bool) {
        let bytes: [UInt8]?
        do { bytes = try AtomicFile.read(path) } catch { throw PasswordFileError(reason: "\(error)") }
        guard let bytes else { throw PasswordFileError(reason: "no such file") }
        let password: String
        do { password = try Self.password(fromFile: bytes) } catch { throw PasswordFileError(reason: error.message) }
        let mode = FileSystem.permissions(path) ?? 0
        return (HTTPCredentials(realm: "previewd", user: "previewd", password: password), mode & 0o077 != 0)
    }

    /// The password from the first line of a password file's `bytes`.
    /// - Throws: `.argument` for an empty line, one over 1024 bytes or one
    ///   with a control character.
    public static func password(fromFile bytes: [UInt8]) throws(ProtocolError) -> String {
        let line = String(decoding: bytes.prefix(while: { $0 != 0x0A }), as: UTF8.self)
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty else { throw ProtocolError(.argument, "the password file's first line is empty") }
        guard password.utf8.count <= 1024 else { throw ProtocolError(.argument, "the password is longer than 1024 bytes") }
        guard !password.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ProtocolError(.argument, "the password holds a control character")
        }
        return password
    }
}

/// Why a password file gives no password.
public struct PasswordFileError: Error, Sendable {
    /// One line, without the file's path.
    public let reason: String
}
