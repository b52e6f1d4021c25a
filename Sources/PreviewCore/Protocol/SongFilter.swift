/// MPD's song filters, as `find`, `search`, `playlistfind`, `list` and
/// `count` take them: either old-style `TAG VALUE` pairs, or one filter
/// expression such as `((artist == 'x') AND (any contains 'y'))`.
public indirect enum SongFilter: Equatable, Sendable {
    /// What a comparison looks at: any tag or the URI (`any`), the URI
    /// (`file`), the songs under a URI (`base`), or one tag type.
    public enum Tag: Equatable, Hashable, Sendable {
        case any, file, base
        case tag(TagType)
    }

    /// A comparison.
    public enum Operator: Equatable, Sendable {
        case equals, notEquals, contains, startsWith
    }

    /// `(TAG OP 'VALUE')`; `foldCase` compares case-insensitively (old-style `search`).
    case compare(Tag, Operator, String, foldCase: Bool)
    /// All must match.
    case and([SongFilter])
    /// `(!FILTER)`.
    case not(SongFilter)

    /// The deepest nesting of parentheses an expression may have. The parser
    /// recurses once a level, so a bound keeps a hostile line (25,000 levels
    /// fit in 50 KB) from overflowing the stack; mpd's own filters stay
    /// within a handful.
    public static let maxDepth = 64

    /// Parses the arguments of `find`-like commands.
    /// - Parameters:
    ///   - args: the arguments (one expression, or TAG VALUE pairs).
    ///   - foldCase: old-style pairs compare case-insensitively and by
    ///     substring (`search`), or exactly (`find`).
    /// - Throws: `.argument` with mpd's texts for malformed input, and
    ///   "filter nested too deeply" past `maxDepth` levels.
    public static func parse(_ args: [String], foldCase: Bool) throws(ProtocolError) -> SongFilter {
        guard !args.isEmpty else { throw ProtocolError(.argument, "too few arguments") }
        if args.count == 1, args[0].hasPrefix("(") {
            var parser = ExpressionParser(Array(args[0].unicodeScalars), foldCase: foldCase)
            let filter = try parser.expression()
            parser.skipSpace()
            guard parser.atEnd else { throw ProtocolError(.argument, "Unparsed garbage after expression") }
            return filter
        }
        guard args.count % 2 == 0 else { throw ProtocolError(.argument, "Incorrect number of filter arguments") }
        var parts: [SongFilter] = []
        var i = 0
        while i < args.count {
            let tag = try tagNamed(args[i])
            parts.append(.compare(tag, foldCase ? .contains : .equals, args[i + 1], foldCase: foldCase))
            i += 2
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    static func tagNamed(_ name: String) throws(ProtocolError) -> Tag {
        switch name.lowercased() {
        case "any": return .any
        case "file", "filename": return .file  // `filename`: mpd's older name
        case "base": return .base
        default:
            guard let tag = TagType(name: name) else { throw ProtocolError(.argument, "Unknown filter type") }
            return .tag(tag)
        }
    }

    /// Whether `song` passes. With `baseHolds`, every `base` comparison
    /// passes: for songs fetched as the contents of that base.
    public func matches(_ song: Song, baseHolds: Bool = false) -> Bool {
        switch self {
        case .and(let parts): return parts.allSatisfy { $0.matches(song, baseHolds: baseHolds) }
        case .not(let inner): return !inner.matches(song, baseHolds: baseHolds)
        case .compare(let tag, let op, let value, let foldCase):
            let candidates: [String]
            switch tag {
            case .any: candidates = [song.uri] + TagType.advertised.flatMap { song.values(of: $0) }
            case .file: candidates = [song.uri]
            case .base:
                let inside = baseHolds || song.isInside(base: value)
                return op == .notEquals ? !inside : inside
            case .tag(let type): candidates = song.values(of: type, fallback: true)
            }
            let needle = foldCase ? value.lowercased() : value
            // As mpd: an empty value matches a song without the tag.
            if candidates.isEmpty, needle.isEmpty, op != .notEquals { return true }
            let hit = candidates.contains { raw in
                let text = foldCase ? raw.lowercased() : raw
                switch op {
                case .equals, .notEquals: return text == needle
                case .contains: return text.contains(needle)
                case .startsWith: return text.hasPrefix(needle)
                }
            }
            return op == .notEquals ? !hit : hit
        }
    }

    /// The positive constraints, for building a catalog search: tag and value
    /// pairs that every match must satisfy.
    public var requirements: [(Tag, String)] {
        switch self {
        case .and(let parts): return parts.flatMap(\.requirements)
        case .not: return []
        case .compare(let tag, let op, let value, _):
            return op == .notEquals ? [] : [(tag, value)]
        }
    }
}

/// Recursive-descent parser for MPD filter expressions.
private struct ExpressionParser {
    let text: [Unicode.Scalar]
    /// `search` compares case-insensitively, `find` exactly.
    let foldCase: Bool
    var i = 0
    /// Levels of `(` open around the expression being read.
    var depth = 0

    init(_ text: [Unicode.Scalar], foldCase: Bool) {
        self.text = text
        self.foldCase = foldCase
    }

    var atEnd: Bool { i >= text.count }

    mutating func skipSpace() { while i < text.count, text[i] == " " || text[i] == "\t" { i += 1 } }

    mutating func expect(_ c: Unicode.Scalar) throws(ProtocolError) {
        skipSpace()
        guard i < text.count, text[i] == c else { throw ProtocolError(.argument, "'\(c)' expected") }
        i += 1
    }

    mutating func expression() throws(ProtocolError) -> SongFilter {
        try expect("(")
        guard depth < SongFilter.maxDepth else {
            throw ProtocolError(.argument, "filter nested too deeply (at most \(SongFilter.maxDepth) levels)")
        }
        depth += 1
        defer { depth -= 1 }
        skipSpace()
        guard i < text.count else { throw ProtocolError(.argument, "Filter expression expected") }
        if text[i] == "(" {
            var parts = [try expression()]
            while true {
                skipSpace()
                if i < text.count, text[i] == ")" { i += 1; break }
                let word = self.word()
                guard word == "AND" else { throw ProtocolError(.argument, "'AND' expected") }
                parts.append(try expression())
            }
            return parts.count == 1 ? parts[0] : .and(parts)
        }
        if text[i] == "!" {
            i += 1
            let inner = try expression()
            try expect(")")
            return .not(inner)
        }
        let tagName = word()
        guard !tagName.isEmpty else { throw ProtocolError(.argument, "Tag name expected") }
        let tag = try SongFilter.tagNamed(tagName)
        skipSpace()
        if tag == .base {
            // `(base 'URI')` has no operator.
            let value = try quoted()
            try expect(")")
            return .compare(.base, .equals, value, foldCase: false)
        }
        let opText = word(operator: true)
        let op: SongFilter.Operator
        switch opText {
        case "==": op = .equals
        case "!=": op = .notEquals
        case "contains": op = .contains
        case "starts_with": op = .startsWith
        case "=~", "!~": throw ProtocolError(.argument, "Regular expressions are not supported")
        default: throw ProtocolError(.argument, "Unknown filter operator: \(opText)")
        }
        skipSpace()
        let value = try quoted()
        try expect(")")
        return .compare(tag, op, value, foldCase: foldCase)
    }

    mutating func word(operator op: Bool = false) -> String {
        skipSpace()
        var out = String.UnicodeScalarView()
        while i < text.count {
            let c = text[i]
            let ok = op ? !(c == " " || c == "'" || c == "\"") : (c.properties.isAlphabetic || c == "_" || c == "-" || c.properties.numericType != nil)
            guard ok else { break }
            out.append(c)
            i += 1
        }
        return String(out)
    }

    mutating func quoted() throws(ProtocolError) -> String {
        guard i < text.count, text[i] == "'" || text[i] == "\"" else { throw ProtocolError(.argument, "Quoted string expected") }
        let quote = text[i]
        i += 1
        var out = String.UnicodeScalarView()
        while i < text.count {
            let c = text[i]
            if c == "\\", i + 1 < text.count {
                out.append(text[i + 1])
                i += 2
                continue
            }
            if c == quote {
                i += 1
                return String(out)
            }
            out.append(c)
            i += 1
        }
        throw ProtocolError(.argument, "Closing quote not found")
    }
}
