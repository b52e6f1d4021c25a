import Glibc

/// The one funnel PreviewPlatform's system calls go through. A call that
/// fails with EINTR (a signal came first and nothing happened) is made
/// again here, so no caller handles EINTR; any other failure becomes a
/// `SystemError` naming the C function, errno (read right after the call)
/// and the path the call was about.
package enum Syscall {
    /// Calls `body` (a C function that returns -1 and sets errno on
    /// failure) until it does not fail with EINTR.
    /// - Returns: what `body` returned, 0 or more.
    /// - Throws: `SystemError(function, path:)` with errno.
    @inline(__always) @discardableResult
    package static func call<Result: SignedInteger>(
        _ function: String, path: String? = nil,
        _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno == EINTR { continue }
            throw SystemError(function, path: path)
        }
    }

    /// Calls `body` once: for the calls EINTR must not repeat (connect(2),
    /// whose connection goes on after an interruption, and close(2)).
    /// - Throws: `SystemError(function, path:)` with errno.
    @inline(__always) @discardableResult
    package static func once<Result: SignedInteger>(
        _ function: String, path: String? = nil,
        _ body: () -> Result
    ) throws(SystemError) -> Result {
        let result = body()
        guard result >= 0 else { throw SystemError(function, path: path) }
        return result
    }

    /// Calls `body`, a function that returns an error number instead of
    /// setting errno: 0 (or more) on success, else the error, as a positive
    /// number (posix_spawn) or negated (sd-bus's `-ENOENT`).
    /// - Throws: `SystemError(function, errno:, path:)`.
    @inline(__always) @discardableResult
    package static func returningError<Result: SignedInteger>(
        _ function: String, path: String? = nil, negated: Bool,
        _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            if negated ? result >= 0 : result == 0 { return result }
            let code = Int32(truncatingIfNeeded: negated ? -result : result)
            if code == EINTR { continue }
            throw SystemError(function, errno: code, path: path)
        }
    }
}
