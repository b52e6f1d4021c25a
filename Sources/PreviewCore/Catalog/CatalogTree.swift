/// The catalog as MPD clients browse it: directories with human names at
/// the root (`lsinfo`), and inside them catalog items (albums, playlists,
/// radios, genre charts) listed as MPD playlist entries, each named for
/// people: `Top Picks/03 Discovery - Daft Punk`.
///
/// Items are playlist entries, not directories, on purpose: a client that
/// walks the whole tree (Cantata at start-up, recursive `lsinfo`) descends
/// into directories only, so a walk lists the sections (one Deezer request
/// each at most) and not every album (one request each), and the songs it
/// finds, the clients' "library", are the Library's alone. An item opens
/// with `lsinfo`, `listplaylistinfo` or `load`, and `add` queues it.
///
/// Names are made here, from the catalog's text; which name stands for
/// which item is kept by the server's `NameIndex`.
public enum CatalogTree {
    /// A directory of the tree.
    public enum Section: Equatable, Sendable {
        /// `Library`: the Library's songs.
        case library
        /// `Want to Listen`: the wanted albums, and `Tracks` for the wanted tracks.
        case wantList
        /// `Listen Now`: Top Songs in COUNTRY (a playlist entry), Top Picks,
        /// New Releases, More like "…", Want to Listen.
        case listenNow
        /// `Charts`: `Top Tracks` (a playlist entry) and the three directories below.
        case charts
        /// `Charts/Top Albums`, `Charts/Top Artists`, `Charts/Top Playlists`, ranked.
        case chartAlbums, chartArtists, chartPlaylists
        /// `Charts/By Country`: each country's chart of tracks (Last.fm's with
        /// a key, else Deezer's own where it keeps one).
        case countries
        /// `Genres`: each genre's chart of tracks.
        case genres
        /// `Top Picks` and `New Releases`: Deezer's editorial albums, ranked.
        case picks, releases
        /// `Radios`: Deezer's radios.
        case radios
        /// `Listen Now/More like "…"`: albums like the newest one saved.
        case moreLike
    }

    /// The root's directories, in the order `lsinfo` lists them.
    public static let root: [(String, Section)] = [
        ("Library", .library), ("Want to Listen", .wantList), ("Listen Now", .listenNow), ("Charts", .charts),
        ("Genres", .genres), ("Top Picks", .picks), ("New Releases", .releases), ("Radios", .radios),
    ]

    /// `Charts`' own entries: the track chart is a playlist entry, the rest directories.
    public static let topTracks = "Charts/Top Tracks"
    public static let charts: [(String, Section)] = [
        ("Charts/Top Albums", .chartAlbums), ("Charts/Top Artists", .chartArtists), ("Charts/Top Playlists", .chartPlaylists),
        ("Charts/By Country", .countries),
    ]
    /// The wanted tracks' playlist entry.
    public static let wantedTracks = "Want to Listen/Tracks"
    /// The prefix of the name of Listen Now's chart of one's own country
    /// (its common English name follows: `Listen Now/Top Songs in Germany`).
    public static let topSongsPrefix = "Listen Now/Top Songs in "
    /// The prefix of the "More like" directory's name (its album's title follows).
    public static let moreLikePrefix = "Listen Now/More like \""

    /// The directory `path` names, when it is one of the tree's (trailing
    /// `/` allowed, as Cantata sends some); Listen Now's copies of Top
    /// Picks, New Releases and Want to Listen are those directories.
    public static func section(_ path: String) -> Section? {
        let path = path.hasSuffix("/") ? String(path.dropLast()) : path
        if let hit = root.first(where: { $0.0 == path }) { return hit.1 }
        if let hit = charts.first(where: { $0.0 == path }) { return hit.1 }
        switch path {
        case "Listen Now/Top Picks": return .picks
        case "Listen Now/New Releases": return .releases
        case "Listen Now/Want to Listen": return .wantList
        default: return path.hasPrefix(moreLikePrefix) && path.hasSuffix("\"") && parent(of: path) == "Listen Now" ? .moreLike : nil
        }
    }

    /// Whether `text` is a path of the tree (a section or an entry inside
    /// one), not a URI or a stored playlist's name (which has no `/`).
    public static func isTreePath(_ text: String) -> Bool {
        let text = text.hasSuffix("/") ? String(text.dropLast()) : text
        if section(text) != nil { return true }
        guard let slash = text.lastIndex(of: "/") else { return false }
        return section(String(text[..<slash])) != nil
    }

    /// The directory holding `path` ("" for a root entry).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The name an entry is listed by: its title, then ` - ` and the
    /// artist when there is one; in a ranked list, the rank first,
    /// zero-padded to the width of the list's length, so that a client
    /// that sorts by name keeps the catalog's order.
    /// - Parameters: rank: 1-based, or nil; count: the list's length.
    public static func entryName(title: String?, artist: String?, rank: Int?, of count: Int) -> String {
        var name = clean(title ?? "")
        if name.isEmpty { name = "Untitled" }
        if let artist, !clean(artist).isEmpty { name += " - " + clean(artist) }
        guard let rank else { return name }
        let digits = String(max(count, rank)).count
        let number = String(rank)
        return String(repeating: "0", count: max(0, max(2, digits) - number.count)) + number + " " + name
    }

    /// `names` made unique, in order: a repeated name gets " (2)", " (3)".
    public static func unique(_ names: [String]) -> [String] {
        var seen: [String: Int] = [:]
        var taken = Set(names)
        return names.map { name in
            let n = (seen[name] ?? 0) + 1
            seen[name] = n
            guard n > 1 else { return name }
            var k = n
            while taken.contains("\(name) (\(k))") { k += 1 }
            taken.insert("\(name) (\(k))")
            return "\(name) (\(k))"
        }
    }

    /// The longest name, in UTF-8 bytes (longer titles are cut at a character).
    public static let maxNameBytes = 200

    /// Catalog text as one path component: no `/` (the separator; shown
    /// as the look-alike `∕`), no control characters, no surrounding
    /// spaces, at most `maxNameBytes`.
    public static func clean(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "/" { out.append("\u{2215}"); continue }
            if c.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) { out.append(" "); continue }
            if out.utf8.count + String(c).utf8.count > maxNameBytes { break }
            out.append(c)
        }
        return out.trimmingSpaces
    }
}

extension String {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
