import PreviewCore
import Testing
@testable import PreviewHTTP

/// The password files of previewweb's `--password-file` and previewd's
/// `--stream-password-file`.
@Suite struct HTTPPasswordFileTests {
    @Test func thePasswordIsTheFilesFirstLine() throws {
        #expect(try HTTPCredentials.password(fromFile: Array("correct horse\nignored\n".utf8)) == "correct horse")
        #expect(try HTTPCredentials.password(fromFile: Array("dos\r\n".utf8)) == "dos")
        #expect(throws: ProtocolError(.argument, "the password file's first line is empty")) {
            try HTTPCredentials.password(fromFile: Array("\nsecond".utf8))
        }
        #expect(throws: ProtocolError(.argument, "the password holds a control character")) {
            try HTTPCredentials.password(fromFile: Array("a\u{1b}b".utf8))
        }
        #expect(throws: ProtocolError(.argument, "the password is longer than 1024 bytes")) {
            try HTTPCredentials.password(fromFile: Array(repeating: 0x61, count: 1025))
        }
    }
}
