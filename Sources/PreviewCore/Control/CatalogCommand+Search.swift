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
    static let numberOptions = Dictionary(uniqueKeysWithValues: DeezerSearch.numberFields.map {
        ("--" + $0.replacingAll("_", with: "-"), $0)
    })

    /// Parses the words after `search`.
    /// - Throws: `ControlCommand.UsageError` naming the option or value at fault.
    init(search arguments: [String]) throws(ControlCommand.UsageError) {
        typealias UsageError = ControlCommand.UsageError
        var words: [String] = []
        var fields: [SearchField] = []
        var limit = DeezerSearch.defaultLimit, page = 1
        var flags = (add: false, play: false, json: false)
        var reader = OptionReader(arguments: arguments)
        func value(_ flag: String) throws(UsageError) -> String { try reader.value(flag) }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int { try reader.number(flag, range) }
        while let word = reader.next() {
            switch word {
            case "--add": flags.add = true
            case "--play": flags.play = true
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
        var kind = "tracks"
        if let first = words.first, Self.searchKinds.contains(first) || Self.searchKinds.contains(first + "s") {
            kind = first.hasSuffix("s") ? first : first + "s"
            words.removeFirst()
        }
        guard !words.isEmpty || !fields.isEmpty else { throw UsageError(message: "search needs a query") }
        if kind == "radios", !fields.isEmpty {
            throw UsageError(message: "radios are searched by name only, without \(fields.map { "--" + $0.name.replacingAll("_", with: "-") }.joined(separator: ", "))")
        }
        self.init(query: .search(kind: kind, text: words.joined(separator: " "), fields: fields, limit: limit, page: page))
        (add, play, json) = flags
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
