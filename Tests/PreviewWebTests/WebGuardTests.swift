import Testing
@testable import PreviewWeb
import PreviewCore

/// previewweb's guard (DNS rebinding, CSRF) and its command line.
@Suite struct WebGuardTests {
    let guardian = WebGuard(address: "127.0.0.1", port: 6680, token: "secret")

    @Test func readsNeedOnlyAHostOfThisServer() {
        #expect(guardian.check(method: "GET", host: "127.0.0.1:6680", origin: nil, token: nil) == .allow)
        #expect(guardian.check(method: "GET", host: "LOCALHOST:6680", origin: nil, token: nil) == .allow)
        #expect(
            guardian.check(method: "GET", host: "evil.example:6680", origin: nil, token: nil)
                == .refuse(status: 421, reason: "this server answers to 127.0.0.1:6680, localhost:6680 only"))
        #expect(guardian.check(method: "GET", host: nil, origin: nil, token: nil) != .allow)
        #expect(guardian.check(method: "GET", host: "127.0.0.1:6681", origin: nil, token: nil) != .allow)
    }

    @Test func changesNeedTheTokenAndOurOrigin() {
        #expect(guardian.check(method: "POST", host: "127.0.0.1:6680", origin: "http://127.0.0.1:6680", token: "secret") == .allow)
        #expect(guardian.check(method: "POST", host: "127.0.0.1:6680", origin: nil, token: "secret") == .allow)
        #expect(
            guardian.check(method: "POST", host: "127.0.0.1:6680", origin: nil, token: nil)
                == .refuse(status: 403, reason: "a request that changes something needs the page's token"))
        #expect(guardian.check(method: "POST", host: "127.0.0.1:6680", origin: nil, token: "secreT") != .allow)
        #expect(
            guardian.check(method: "POST", host: "127.0.0.1:6680", origin: "http://evil.example", token: "secret")
                == .refuse(status: 403, reason: "requests from another site may not change anything"))
        #expect(guardian.check(method: "DELETE", host: "127.0.0.1:6680", origin: nil, token: nil) != .allow)
    }

    @Test func theCommandLine() throws {
        #expect(try WebOptions.parse([]) == WebOptions())
        let o = try WebOptions.parse(["--socket", "/run/s", "--listen", "127.0.0.1:0"])
        #expect(o.socket == "/run/s" && o.address == "127.0.0.1" && o.port == 0)
        #expect(
            throws: ProtocolError(.argument, "--listen 0.0.0.0: beyond loopback (127.x.x.x) a password is needed: --password-file FILE")
        ) {
            try WebOptions.parse(["--listen", "0.0.0.0:6680"])
        }
        let wide = try WebOptions.parse(["--listen", "0.0.0.0:6680", "--password-file", "/p"])
        #expect(wide.address == "0.0.0.0" && wide.passwordFile == "/p" && !wide.isLoopback)
        #expect(throws: ProtocolError(.argument, "--listen takes ADDRESS:PORT, as 127.0.0.1:6680: 127.0.0.1")) {
            try WebOptions.parse(["--listen", "127.0.0.1"])
        }
        #expect(throws: ProtocolError(.argument, "unknown option --port")) { try WebOptions.parse(["--port", "1"]) }
        #expect(throws: ProtocolError(.argument, "--socket needs a value")) { try WebOptions.parse(["--socket"]) }
        // --help and --version win over what follows them, as they do for previewd.
        #expect(try WebOptions.parse(["--version", "--listen", "0.0.0.0:1"]).action == .version)
        #expect(try WebOptions.parse(["--socket", "/s", "--help"]).action == .help)
        #expect(try WebOptions.parse(["-h"]).action == .help)
    }

    @Test func beyondLoopbackAnyAddressButNoNameIsAnswered() {
        let wide = WebGuard(address: "0.0.0.0", port: 6680, token: "secret")
        #expect(wide.check(method: "GET", host: "192.168.1.20:6680", origin: nil, token: nil) == .allow)
        #expect(wide.check(method: "GET", host: "localhost:6680", origin: nil, token: nil) == .allow)
        #expect(
            wide.check(method: "GET", host: "evil.example:6680", origin: nil, token: nil)
                == .refuse(status: 421, reason: "this server answers to 127.0.0.1:6680, localhost:6680, IPV4:6680 only"))
        #expect(wide.check(method: "GET", host: "192.168.1.20:6681", origin: nil, token: nil) != .allow)
        #expect(wide.check(method: "GET", host: "1.2.3.4.5:6680", origin: nil, token: nil) != .allow)
        #expect(wide.check(method: "GET", host: "1.2.3.256:6680", origin: nil, token: nil) != .allow)
        #expect(wide.check(method: "POST", host: "192.168.1.20:6680", origin: "http://192.168.1.20:6680", token: "secret") == .allow)
        // Loopback answers no other address.
        #expect(guardian.check(method: "GET", host: "192.168.1.20:6680", origin: nil, token: nil) != .allow)
    }

    @Test func theCoversDirectory() throws {
        let none: (String) -> String? = { _ in nil }
        #expect(try WebOptions.parse(["--cache-dir", "/c"]).coverDirectory(environment: none) == "/c")
        let xdg: (String) -> String? = { ["XDG_CACHE_HOME": "/x", "HOME": "/h"][$0] }
        #expect(WebOptions().coverDirectory(environment: xdg) == "/x/previewd/covers")
        let home: (String) -> String? = { ["XDG_CACHE_HOME": "relative", "HOME": "/h"][$0] }
        #expect(WebOptions().coverDirectory(environment: home) == "/h/.cache/previewd/covers")
        #expect(WebOptions().coverDirectory(environment: none) == nil)
    }
}
