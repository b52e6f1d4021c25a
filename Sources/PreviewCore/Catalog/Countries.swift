/// Countries whose Last.fm chart the catalog tree lists
/// (`Charts/By Country`), by the English name Last.fm's `geo` methods take
/// (ISO 3166-1 short names): the larger music markets, in alphabetical
/// order. `catalogchart` takes any name Last.fm knows.
public enum Countries {
    public static let names = [
        "Argentina", "Australia", "Austria", "Belgium", "Brazil", "Bulgaria", "Canada", "Chile", "Colombia",
        "Croatia", "Czech Republic", "Denmark", "Egypt", "Finland", "France", "Germany", "Greece", "Hungary",
        "India", "Indonesia", "Ireland", "Israel", "Italy", "Japan", "Mexico", "Morocco", "Netherlands",
        "New Zealand", "Nigeria", "Norway", "Peru", "Philippines", "Poland", "Portugal", "Romania", "Serbia",
        "Singapore", "Slovakia", "South Africa", "Spain", "Sweden", "Switzerland", "Thailand", "Turkey",
        "Ukraine", "United Kingdom", "United States",
    ]
}

/// One country of ISO 3166-1: its codes and English names.
public struct Country: Equatable, Sendable {
    /// alpha-2 (`DE`) and alpha-3 (`DEU`) codes, upper case.
    public var code: String
    public var code3: String
    /// ISO's short name (`Germany`, `Korea, Republic of`).
    public var name: String
    /// The name people use where ISO's differs (`South Korea`), and the
    /// official one (`Federal Republic of Germany`).
    public var commonName: String?
    public var officialName: String?

    /// - Parameters: as the properties.
    public init(code: String, code3: String, name: String, commonName: String? = nil, officialName: String? = nil) {
        (self.code, self.code3, self.name, self.commonName, self.officialName) = (code, code3, name, commonName, officialName)
    }

    /// The name to show (`South Korea`, `Germany`).
    public var displayName: String { commonName ?? name }

    /// The name Last.fm's `geo` methods take: ISO's short names as they
    /// were before ISO renamed a few (Last.fm's list is older), else ISO's.
    public var lastfmName: String { Self.lastfmNames[code] ?? name }
    static let lastfmNames = ["CZ": "Czech Republic", "TR": "Turkey"]
}

/// ISO 3166-1's countries (Debian's iso-codes, read by the catalog target)
/// and how a typed name finds one: a code (`US`, `USA`), an English name
/// (`United States`, `United States of America`) or a common alias (`UK`,
/// `Great Britain`, `America`), in any case.
public struct CountryTable: Sendable {
    /// Every country, in the list's order (ISO's: by alpha-2 code).
    public let countries: [Country]
    private let byKey: [String: Int]

    /// Aliases people type that ISO does not list, to the alpha-2 code.
    static let aliases = [
        "UK": "GB", "GREAT BRITAIN": "GB", "BRITAIN": "GB", "ENGLAND": "GB", "SCOTLAND": "GB",
        "WALES": "GB", "AMERICA": "US", "U.S.": "US", "U.S.A.": "US", "HOLLAND": "NL",
        "CZECH REPUBLIC": "CZ", "TURKEY": "TR", "RUSSIA": "RU", "SOUTH KOREA": "KR", "KOREA": "KR",
        "VIETNAM": "VN", "IRAN": "IR", "SYRIA": "SY", "BOLIVIA": "BO", "VENEZUELA": "VE",
        "TANZANIA": "TZ", "MOLDOVA": "MD", "LAOS": "LA", "IVORY COAST": "CI",
    ]

    /// - Parameter countries: ISO's list; a code or name given twice keeps its first.
    public init(_ countries: [Country]) {
        self.countries = countries
        var keys: [String: Int] = [:]
        for (i, c) in countries.enumerated() {
            for key in [c.code, c.code3, c.name, c.commonName, c.officialName].compactMap({ $0 }) {
                if keys[Self.key(key)] == nil { keys[Self.key(key)] = i }
            }
        }
        for (alias, code) in Self.aliases {
            if keys[alias] == nil, let i = keys[code] { keys[alias] = i }
        }
        byKey = keys
    }

    /// Upper case, spaces trimmed and runs of them made one.
    static func key(_ text: some StringProtocol) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ").uppercased()
    }

    /// The country `text` names, or nil.
    public func find(_ text: String) -> Country? { byKey[Self.key(text)].map { countries[$0] } }

    /// The error for a name no country has: what works, and close names.
    public func unknown(_ text: String) -> ProtocolError {
        let names = countries.map(\.displayName)
        let close = names.filter { ClosestMatch.closest(to: text, among: [$0.lowercased()]) != nil }
        let hint = close.isEmpty ? "" : "; close: " + close.prefix(3).joined(separator: ", ")
        return ProtocolError(
            .noExist,
            "unknown country \"\(text)\" (ISO codes such as DE, English names such as "
                + "Germany, and UK, USA work)\(hint)")
    }

    /// The alpha-2 code of the territory a locale names (`de_DE.UTF-8` is
    /// `DE`, `en_US` is `US`); nil for `C`, `POSIX` and locales without one.
    public static func territory(ofLocale locale: String) -> String? {
        let name = locale.split(separator: ".", maxSplits: 1).first.map { $0.split(separator: "@").first ?? $0 } ?? ""
        let parts = name.split(separator: "_")
        guard parts.count == 2, parts[1].count == 2, parts[1].allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return parts[1].uppercased()
    }

    /// The locale's country as POSIX picks the messages' locale: the first
    /// of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty,
    /// with that variable's name and value (for `--print-config`).
    public static func localeCountry(environment: (String) -> String?) -> LocaleCountry? {
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment(variable), !value.isEmpty else { continue }
            return territory(ofLocale: value).map { LocaleCountry(code: $0, variable: variable, value: value) }
        }
        return nil
    }
}

/// The country a locale names, and the variable and value that named it
/// (`DE` from `LANG=de_DE.UTF-8`).
public struct LocaleCountry: Equatable, Sendable {
    /// The territory's alpha-2 code, upper case (`DE`).
    public var code: String
    /// The variable that named it (`LC_ALL`, `LC_MESSAGES` or `LANG`) and its value.
    public var variable: String
    public var value: String
}

/// Deezer's own chart of a country needs no key: its editors' "Top
/// COUNTRY" playlists (by "Deezer Charts"), refreshed daily. Deezer's API
/// has no chart-by-country call (`/chart` answers for the caller's
/// country), so these public playlists are the source where one exists.
/// Ids as Deezer publishes them (deezer.com/playlist/ID); a country not
/// here needs Last.fm for its chart.
public enum DeezerCountryCharts {
    /// Playlist ids (`deezer:playlist:ID`) by the country's alpha-2 code.
    public static let playlists: [String: Int] = [
        "AU": 1313616925, "BR": 1111141961, "CA": 1652248171, "CO": 1116188451, "DE": 1111143121, "ES": 1116190041,
        "FR": 1109890291, "GB": 1111142221, "IT": 1116187241, "JP": 1362508955, "KR": 1362510315, "MX": 1111142361,
        "US": 1313621735,
    ]
}
