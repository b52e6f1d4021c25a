import PreviewCore

/// What previewctl completes after the words typed so far: fixed words
/// (`on`/`off`, a subcommand's actions) or values only the daemon knows
/// (queue positions, stored playlists, genres, want list and Library URIs),
/// which `previewctl __complete WORDS...` looks up. The shell scripts ask
/// it at each Tab and filter by what is typed, so every shell completes alike.
extension Completions {
    /// What may come next.
    public enum Candidates: Equatable, Sendable {
        case words([String])
        /// 1 to the queue's length.
        case positions
        /// Stored playlist names.
        case playlists
        /// Deezer's genre names.
        case genres
        /// URIs on the want list, or in the Library.
        case wanted
        case saved
        case none
    }

    /// The candidates for the word after `typed` (the words after
    /// `previewctl` but the one being completed, without `--socket PATH`).
    public static func candidates(after typed: [String]) -> Candidates {
        let words = typed.filter { !$0.hasPrefix("--socket") }
        guard let command = words.first else { return .words(ControlCommand.subcommands.map(\.name) + ["--socket", "--help"]) }
        if words.last == "--genre" { return .genres }
        let args = Array(words.dropFirst())
        switch (command, args.count) {
        case ("play", 0), ("del", 0), ("move", 0), ("move", 1): return .positions
        case ("load", 0), ("playlist", 0), ("rmplaylist", 0): return .playlists
        case ("playlist", 1): return .words(["add", "rename", "del", "move"])
        case ("random", 0), ("repeat", 0), ("autoplay", 0): return .words(["on", "off"])
        case ("completions", 0): return .words(["bash", "zsh", "fish"])
        case ("help", 0): return .words(ControlCommand.subcommands.map(\.name))
        case ("want", 0): return .words(["add", "rm", "toggle", "play"])
        case ("want", 1) where ["rm", "toggle", "play"].contains(args[0]): return .wanted
        case ("library", 0): return .words(["add", "rm"])
        case ("library", 1) where args[0] == "rm": return .saved
        case ("search", 0): return .words(CatalogCommand.searchKinds)
        case ("chart", 0): return .words(["tracks", "albums", "artists", "playlists", "--genre", "--country", "--tag"])
        case ("current", _), ("watch", _), ("now", _), ("status", 0), ("queue", 0): return .words(["--json"])
        default: return .none
        }
    }

    /// Names from a `cataloggenres` reply (`genre: ID`, `Name: N` pairs).
    public static func genreNames(_ fields: [(String, String)]) -> [String] {
        fields.filter { $0.0 == "Name" }.map(\.1)
    }
}
