import PreviewCore

/// `previewctl search [KIND] QUERY [OPTION VALUE]...`: every field of
/// `catalogsearch` as an option, the five kinds Deezer searches, a page.
extension CatalogCommand {
    /// One advanced-search field: its protocol name (`artist`, `dur_min`)
    /// and value as given.
    public struct SearchField: Equatable, Sendable {
        public var name: String
        public var value: String
    }

    /// Kinds, plural as the protocol takes them.
    public static let searchKinds = DeezerSearch.Kind.allCases.map(\.rawValue)

    /// Text options, each a `catalogsearch` field of the same name (`--artist`).
    static let textOptions = Dictionary(uniqueKeysWithValues: DeezerSearch.textFields.map { ("--" + $0, $0) })
    /// Number options, the fields with a dash for the underscore (`--dur-min`).
    static let numberOptions = Dictionary(
        uniqueKeysWithValues: DeezerSearch.numberFields.map {
            ("--" + $0.replacingAll("_", with: "-"), $0)
        })

    /// Parses the words after `search`.
    /// - Throws: `ControlCommand.UsageError` naming the option or value at fault.
    init(search arguments: [String]) throws(ControlCommand.UsageError) {
        typealias UsageError = ControlCommand.UsageError
        var words: [String] = []
        var fields: [SearchField] = []
        var limit = DeezerSearch.defaultLimit, page = 1
        var flags = (add: false, play: false, json: false, pick: Int?.none)
        var reader = OptionReader(arguments: arguments)
        func value(_ flag: String) throws(UsageError) -> String { try reader.value(flag) }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int { try reader.number(flag, range) }
        while let word = reader.next() {
            switch word {
            case "--add", "--play":
                if word == "--add" { flags.add = true } else { flags.play = true }
                flags.pick = try reader.entryNumber() ?? flags.pick
            case "--json": flags.json = true
            case "--limit": limit = try number("--limit", DeezerSearch.limits)
            case "--page": page = try number("--page", 1...1000)
            case _ where Self.textOptions[word] != nil:
                fields.append(SearchField(name: Self.textOptions[word]!, value: try value(word)))
            case _ where Self.numberOptions[word] != nil:
                fields.append(SearchField(name: Self.numberOptions[word]!, value: String(try number(word, 0...100_000))))
            case _ where word.hasPrefix("--"): throw UsageError(message: "unknown option \"\(word)\" for search")
            default: words.append(word)
            }
        }
        if words.isEmpty, fields.isEmpty, let n = flags.pick {
            // `search --play 50`: the number was the query.
            words = [String(n)]
            flags.pick = nil
        }
        var kinds = ["tracks"]
        if let first = words.first, let given = try Self.searchKinds(first) {
            kinds = given
            words.removeFirst()
        }
        guard !words.isEmpty || !fields.isEmpty else { throw UsageError(message: "search needs a query") }
        if kinds.contains("radios"), !fields.isEmpty {
            throw UsageError(
                message:
                    "radios are searched by name only, without \(fields.map { "--" + $0.name.replacingAll("_", with: "-") }.joined(separator: ", "))"
            )
        }
        self.init(query: .search(kinds: kinds, text: words.joined(separator: " "), fields: fields, limit: limit, page: page))
        (add, play, json, pick) = flags
    }

    /// The kinds a first word names: one (`albums`, `album`) or several
    /// joined by commas (`tracks,albums`); nil for a word that names none,
    /// which is then the query's first word.
    /// - Throws: `UsageError` for a list that names some kinds and some
    ///   words that are not (a slip in `tracks,albmus`), never a silent
    ///   search for "tracks,albmus".
    static func searchKinds(_ word: String) throws(UsageError) -> [String]? {
        func kind(_ piece: Substring) -> String? {
            let plural = piece.hasSuffix("s") ? String(piece) : piece + "s"
            return searchKinds.contains(plural) ? plural : nil
        }
        let pieces = word.split(separator: ",", omittingEmptySubsequences: false)
        let known = pieces.compactMap(kind)
        guard !known.isEmpty else { return nil }
        if let wrong = pieces.first(where: { kind($0) == nil }) {
            let hint = ClosestMatch.closest(to: String(wrong), among: searchKinds).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw UsageError(
                message: "search kinds are \(searchKinds.joined(separator: ", ")) or several joined by commas, not \"\(wrong)\"" + hint)
        }
        var unique: [String] = []
        for k in known where !unique.contains(k) { unique.append(k) }
        return unique
    }

    /// The position of the first result asked for, from 0 (a search's page).
    public var firstIndex: Int {
        if case .search(_, _, _, let limit, let page) = query { return (page - 1) * limit }
        return 0
    }

    /// The `catalogsearch` request for a search query.
    static func searchRequest(kind: String, text: String, fields: [SearchField], limit: Int, page: Int) -> String {
        let q = RequestParser.quote
        var line = "catalogsearch \(kind) \(q(text))"
        for field in fields { line += " \(field.name) \(q(field.value))" }
        return line + " limit \(limit) index \((page - 1) * limit)"
    }
}
