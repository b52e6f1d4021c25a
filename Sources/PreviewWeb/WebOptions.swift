import PreviewCore

/// previewweb's command line: `--socket PATH` (as previewctl takes it),
/// `--listen ADDRESS:PORT` (default `127.0.0.1:6680`), `--cache-dir DIR`
/// (the covers' cache) and `--password-file FILE` (needed beyond loopback).
public struct WebOptions: Equatable, Sendable {
    /// The daemon's socket; nil: the default previewctl uses.
    public var socket: String?
    /// A dotted IPv4 address.
    public var address = "127.0.0.1"
    /// 0: any free port (the address printed at start says which).
    public var port = 6680
    /// Where covers are kept; nil: `coverDirectory(environment:)`'s default.
    public var cacheDirectory: String?
    /// The file holding the password (its first line); nil: none asked.
    public var passwordFile: String?
    /// `--help` or `--version`: print that and exit, serving nothing.
    public var action: Action?

    /// What `--help` and `--version` ask instead of serving.
    public enum Action: Equatable, Sendable { case help, version }

    /// Whether `address` is a loopback one (127.x.x.x).
    public var isLoopback: Bool { address.hasPrefix("127.") }

    public static let usage = """
        usage: previewweb [--socket PATH] [--listen ADDRESS:PORT] [--password-file FILE] [--cache-dir DIR]
          --help, --version      print this text, or the version, and exit
          --socket PATH          previewd's socket (default: as previewctl finds it)
          --listen ADDRESS:PORT  where to serve the page (default 127.0.0.1:6680; beyond
                                 loopback, as 0.0.0.0:6680 for a phone, a password is needed)
          --password-file FILE   ask for user "previewd" and the password on FILE's first line
                                 (HTTP digest authentication)
          --cache-dir DIR        where covers are kept (default $XDG_CACHE_HOME/previewd/covers,
                                 or ~/.cache/previewd/covers; at most 2000 covers, 64 MiB)

        """

    /// Parses the arguments (without the program's name).
    /// - Throws: `.argument` with a line for the user: an unknown option,
    ///   a missing value, a malformed address, or one beyond loopback
    ///   without `--password-file`.
    public static func parse(_ args: [String]) throws(ProtocolError) -> WebOptions {
        var options = WebOptions()
        var i = 0
        while i < args.count {
            let flag = args[i]
            if flag == "--help" || flag == "-h" || flag == "--version" {
                options.action = flag == "--version" ? .version : .help
                return options
            }
            guard ["--socket", "--listen", "--cache-dir", "--password-file"].contains(flag) else {
                throw ProtocolError(.argument, "unknown option \(flag)")
            }
            guard i + 1 < args.count else { throw ProtocolError(.argument, "\(flag) needs a value") }
            let value = args[i + 1]
            switch flag {
            case "--socket": options.socket = value
            case "--cache-dir": options.cacheDirectory = value
            case "--password-file": options.passwordFile = value
            default: try options.listen(value)
            }
            i += 2
        }
        guard options.isLoopback || options.passwordFile != nil else {
            throw ProtocolError(
                .argument, "--listen \(options.address): beyond loopback (127.x.x.x) a password is needed: --password-file FILE")
        }
        return options
    }

    /// The covers' directory: `--cache-dir`, else `$XDG_CACHE_HOME/previewd/covers`,
    /// else `$HOME/.cache/previewd/covers`; nil without either variable.
    public func coverDirectory(environment: (String) -> String?) -> String? {
        if let cacheDirectory { return cacheDirectory }
        if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/previewd/covers" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.cache/previewd/covers" }
        return nil
    }

    private mutating func listen(_ text: String) throws(ProtocolError) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ProtocolError(.argument, "--listen takes ADDRESS:PORT, as 127.0.0.1:6680: \(text)")
        }
        let address = String(text[..<colon])
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else {
            throw ProtocolError(.argument, "--listen takes an IPv4 address, as 127.0.0.1: \(address)")
        }
        self.address = address
        self.port = port
    }
}
