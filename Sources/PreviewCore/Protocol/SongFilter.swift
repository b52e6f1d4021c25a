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
    /// `(modified-since 'TIME')` and mpd 0.24's `(added-since 'TIME')`:
    /// songs that entered the Library at or after Unix seconds TIME. A
    /// catalog song does not change once added, so both read the time the
    /// Library entry holding it was saved; a song outside the Library has
    /// none and never matches.
    case addedSince(Int)
    /// `(AudioFormat == 'R:B:C')` or `(AudioFormat =~ 'MASK')`: the text as
    /// given, checked as mpd checks it. A song's format is known only once
    /// it is decoded, and songs are listed before that, so it never
    /// matches, as mpd's songs of unknown format never do.
    case audioFormat(String)

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
            if args[i] == "modified-since" || args[i] == "added-since" {
                parts.append(.addedSince(try time(args[i + 1])))
                i += 2
                continue
            }
            let tag = try tagNamed(args[i])
            parts.append(.compare(tag, foldCase ? .contains : .equals, args[i + 1], foldCase: foldCase))
            i += 2
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// `modified-since`'s value: ISO 8601 (`ISO8601.unixSeconds`) or whole
    /// Unix seconds, as mpd reads it.
    /// - Throws: `.argument` "Failed to parse date" (mpd's words).
    static func time(_ text: String) throws(ProtocolError) -> Int {
        if let seconds = ISO8601.unixSeconds(text) { return seconds }
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int(text) { return seconds }
        throw ProtocolError(.argument, "Failed to parse date")
    }

    /// Checks an `AudioFormat` value as mpd's parser does (`RATE:BITS:CHANNELS`,
    /// `*` for any part in a mask), with its error texts.
    static func checkAudioFormat(_ text: String, mask: Bool) throws(ProtocolError) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        func any(_ part: Substring) -> Bool { mask && part == "*" }
        guard any(parts[0]) || UInt32(parts[0]) != nil else { throw ProtocolError(.argument, "Failed to parse the sample rate") }
        if let rate = UInt32(parts[0]), rate == 0 || rate > 768_000 * 16 {
            throw ProtocolError(.argument, "Invalid sample rate: \(rate)")
        }
        guard parts.count > 1 else { throw ProtocolError(.argument, "Sample format missing") }
        guard any(parts[1]) || ["8", "16", "24", "32", "f", "dsd"].contains(parts[1]) else {
            throw ProtocolError(.argument, "Failed to parse the sample format")
        }
        guard parts.count > 2 else { throw ProtocolError(.argument, "Channel count missing") }
        guard any(parts[2]) || UInt8(parts[2]) != nil else { throw ProtocolError(.argument, "Failed to parse the channel count") }
        if let channels = UInt8(parts[2]), channels == 0 || channels > 8 {
            throw ProtocolError(.argument, "Invalid channel count: \(channels)")
        }
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
    /// `added` gives the Unix seconds a song entered the Library (nil:
    /// not in it), for `addedSince`.
    public func matches(_ song: Song, baseHolds: Bool = false, added: (String) -> Int? = { _ in nil }) -> Bool {
        switch self {
        case .and(let parts): return parts.allSatisfy { $0.matches(song, baseHolds: baseHolds, added: added) }
        case .not(let inner): return !inner.matches(song, baseHolds: baseHolds, added: added)
        case .addedSince(let time): return added(song.uri).map { $0 >= time } ?? false
        case .audioFormat: return false
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

    /// Whether only Library songs can match: a time or format every match
    /// must have, which no catalog song has.
    public var needsLibrary: Bool {
        switch self {
        case .and(let parts): return parts.contains(where: \.needsLibrary)
        case .addedSince, .audioFormat: return true
        case .not, .compare: return false
        }
    }

    /// The positive constraints, for building a catalog search: tag and value
    /// pairs that every match must satisfy.
    public var requirements: [(Tag, String)] {
        switch self {
        case .and(let parts): return parts.flatMap(\.requirements)
        case .not, .addedSince, .audioFormat: return []
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
        if tagName == "modified-since" || tagName == "added-since" {
            skipSpace()
            let value = try quoted()
            try expect(")")
            return .addedSince(try SongFilter.time(value))
        }
        if tagName.lowercased() == "audioformat" {
            skipSpace()
            let opText = word(operator: true)
            guard opText == "==" || opText == "=~" else { throw ProtocolError(.argument, "'==' or '=~' expected") }
            skipSpace()
            let value = try quoted()
            try SongFilter.checkAudioFormat(value, mask: opText == "=~")
            try expect(")")
            return .audioFormat(value)
        }
        let tag: SongFilter.Tag
        do { tag = try SongFilter.tagNamed(tagName) } catch {
            throw ProtocolError(.argument, "Unknown filter type: \(tagName)")  // mpd names it here, not in pairs
        }
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
            let ok =
                op
                ? !(c == " " || c == "'" || c == "\"")
                : (c.properties.isAlphabetic || c == "_" || c == "-" || c.properties.numericType != nil)
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
