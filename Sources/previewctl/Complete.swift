// `previewctl __complete WORDS...`: the shell completions' helper. Prints
// what may follow WORDS, one per line; what the daemon knows is asked for
// quietly (no daemon: no candidates, never an error).
import PreviewControl
import PreviewCore
import PreviewPlatform

func completeArguments(_ typed: [String], socket: String?) -> Never {
    var socket = socket
    var typed = typed
    if let i = typed.firstIndex(of: "--socket"), i + 1 < typed.count {
        socket = typed[i + 1]
        typed.removeSubrange(i...i + 1)
    }
    let path = SocketPath.resolve(explicit: socket, environment: Environment.value, uid: ThisProcess.userID)
    let fromDaemon: ([String]) -> [(String, String)] = { commands in
        guard let c = try? Connection(path: path), case .ok(let fields) = c.request(commands) else { return [] }
        return fields
    }
    let words: [String]
    switch Completions.candidates(after: typed) {
    case .words(let fixed): words = fixed
    case .positions:
        let length = Int(fromDaemon(["status"]).first { $0.0 == "playlistlength" }?.1 ?? "") ?? 0
        words = length > 0 ? (1...length).map(String.init) : []
    case .playlists: words = fromDaemon(["listplaylists"]).filter { $0.0 == "playlist" }.map(\.1)
    case .genres: words = Completions.genreNames(fromDaemon(["cataloggenres"]))
    case .wanted: words = CatalogRecord.split(fromDaemon(["wantlist"])).map(\.uri)
    case .saved: words = CatalogRecord.split(fromDaemon(["librarylist"])).map(\.uri)
    case .none: words = []
    }
    out(words.map { $0 + "\n" }.joined())
    exit(0)
}
