import PreviewCore

/// An edit of one stored playlist from previewctl: `playlist NAME rename
/// NEW`, `playlist NAME del POS`, `playlist NAME move FROM TO` (positions
/// from 1, as people count; the protocol counts from 0).
public enum PlaylistEdit: Equatable, Sendable {
    case rename(String)
    case delete(Int)
    case move(Int, Int)

    /// The protocol request for this edit of playlist `name` (mpd's
    /// `rename`, `playlistdelete`, `playlistmove`).
    public func request(_ name: String) -> String {
        let q = RequestParser.quote
        switch self {
        case .rename(let new): return "rename \(q(name)) \(q(new))"
        case .delete(let position): return "playlistdelete \(q(name)) \(position - 1)"
        case .move(let from, let to): return "playlistmove \(q(name)) \(from - 1) \(to - 1)"
        }
    }
}

extension Subcommand {
    /// `playlist NAME` (show) or `playlist NAME add URI|N... | rename NEW |
    /// del POS | move FROM TO`.
    func playlist() throws(UsageError) -> ControlCommand {
        guard let name = args.first else { throw UsageError(message: "playlist needs the playlist's name") }
        guard args.count > 1 else { return .showPlaylist(name) }
        let rest = Array(args.dropFirst(2))
        switch args[1] {
        case "add":
            guard !rest.isEmpty else {
                throw UsageError(message: "playlist NAME add takes URIs or entry numbers of the last listing")
            }
            var references: [ListingReference] = []
            for word in rest { references.append(try ListingReference(word)) }
            return .addToPlaylist(name, references)
        case "rename":
            guard rest.count == 1 else { throw UsageError(message: "playlist NAME rename takes the new name") }
            return .editPlaylist(name, .rename(rest[0]))
        case "del", "delete":
            guard rest.count == 1, let n = Int(rest[0]), n >= 1, n <= Int(Int32.max) else {
                throw UsageError(message: "playlist NAME del takes a position from 1")
            }
            return .editPlaylist(name, .delete(n))
        case "move":
            guard rest.count == 2, let from = Int(rest[0]), let to = Int(rest[1]), from >= 1, to >= 1,
                from <= Int(Int32.max), to <= Int(Int32.max)
            else {
                throw UsageError(message: "playlist NAME move takes two positions from 1")
            }
            return .editPlaylist(name, .move(from, to))
        default:
            throw UsageError(message: "playlist NAME takes add, rename, del or move, not \"\(args[1])\"")
        }
    }

    /// `load NAME [--play]`.
    func load() throws(UsageError) -> ControlCommand {
        let names = args.filter { $0 != "--play" }
        guard names.count == 1 else { throw UsageError(message: "load takes one playlist name (and --play)") }
        return .load(names[0], play: names.count != args.count)
    }

    /// `open N [--play|--add] [--json]`.
    func open() throws(UsageError) -> ControlCommand {
        let flags = ["--play", "--add", "--json"]
        let words = args.filter { !flags.contains($0) }
        guard words.count == 1, case .entry(let n) = try ListingReference(words[0]) else {
            throw UsageError(message: "open takes the number of an entry of the last listing")
        }
        return .open(n, add: args.contains("--add"), play: args.contains("--play"), json: args.contains("--json"))
    }

    /// `save NAME [--replace]`: `--replace` overwrites a playlist of that name.
    func save() throws(UsageError) -> ControlCommand {
        let names = args.filter { $0 != "--replace" }
        guard names.count == 1 else { throw UsageError(message: "save takes one playlist name (and --replace)") }
        return .save(names[0], replace: names.count != args.count)
    }
}
