/// MPD's `ACK` error codes (`enum ack` in MPD's `protocol/Ack.hxx`).
public enum AckCode: Int, Sendable, Equatable {
    case notList = 1
    case argument = 2
    case password = 3
    case permission = 4
    case unknown = 5
    case noExist = 50
    case playlistMax = 51
    case system = 52
    case playlistLoad = 53
    case updateAlready = 54
    case playerSync = 55
    case exist = 56
}

/// A refused request: becomes one `ACK [code@index] {command} message` line.
public struct ProtocolError: Error, Equatable, Sendable {
    /// The MPD error class.
    public var code: AckCode
    /// Human-readable reason, without a trailing newline.
    public var message: String

    /// - Parameters: code: the ACK code; message: the reason shown to the client.
    public init(_ code: AckCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Formats the error as MPD's ACK line (with the trailing `\n`).
    /// - Parameters:
    ///   - index: the position of the failing command inside a command list (0 outside lists).
    ///   - command: the failing command's name, empty when the line did not parse.
    public func ackLine(index: Int, command: String) -> String {
        "ACK [\(code.rawValue)@\(index)] {\(command)} \(message)\n"
    }
}
