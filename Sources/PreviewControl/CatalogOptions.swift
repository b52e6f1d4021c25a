import PreviewCore

/// The options and words after a catalog subcommand (`search`, `chart`,
/// `picks`, ...), read once so that each subcommand only checks which of
/// them it takes.
struct CatalogOptions {
    typealias UsageError = ControlCommand.UsageError

    /// The words that are not options, in order.
    var words: [String] = []
    var add = false, play = false, json = false
    /// `--play N` / `--add N`: entry N of the listing only.
    var pick: Int?
    /// `album ID --shuffle`: queue in shuffled order and play.
    var shuffle = false
    /// `artist ID --radio`: the artist's mix instead of its top tracks.
    var radio = false
    /// `radios --top`.
    var top = false
    var country: String?, tag: String?
    /// `--genre NAME|ID`, as typed (the daemon matches names).
    var genre: String?
    /// Results per page (1 ... 100) and the page (from 1).
    var limit = 25, page = 1
    /// The options given, as typed (`--genre`), to refuse those a
    /// subcommand does not take.
    var given: [String] = []

    /// - Throws: `UsageError` for an option without a value, a number out
    ///   of range or an unknown option (naming the subcommand `name`).
    init(name: String, arguments: [String]) throws(UsageError) {
        var reader = OptionReader(arguments: arguments)
        func value(_ flag: String) throws(UsageError) -> String { try reader.value(flag) }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int { try reader.number(flag, range) }
        while let word = reader.next() {
            if word.hasPrefix("--") { given.append(word) }
            switch word {
            case "--add", "--play":
                if word == "--add" { add = true } else { play = true }
                pick = try reader.entryNumber() ?? pick
            case "--json": json = true
            case "--shuffle": shuffle = true
            case "--radio": radio = true
            case "--top": top = true
            case "--country": country = reader.optionalValue()  // none: your own country
            case "--tag": tag = try value(word)
            case "--genre": genre = try value(word)
            case "--limit": limit = try number(word, 1...100)
            case "--page": page = try number(word, 1...1000)
            case _ where word.hasPrefix("--"):
                throw UsageError(message: "unknown option \"\(word)\" for \(name)")
            default: words.append(word)
            }
        }
    }

    /// - Throws: `UsageError` naming the first option given that is neither
    ///   `--add`, `--play`, `--json` nor one of `allowed`.
    func only(_ allowed: [String], for name: String) throws(UsageError) {
        let always = ["--add", "--play", "--json"]
        if let extra = given.first(where: { !always.contains($0) && !allowed.contains($0) }) {
            throw UsageError(message: "\(name) does not take \(extra)")
        }
    }
}

/// Reads a subcommand's words one at a time, an option's value with it.
struct OptionReader {
    typealias UsageError = ControlCommand.UsageError
    let arguments: [String]
    private var i = 0

    init(arguments: [String]) { self.arguments = arguments }

    /// The next word, or nil after the last.
    mutating func next() -> String? {
        guard i < arguments.count else { return nil }
        i += 1
        return arguments[i - 1]
    }

    /// The entry number after `--play` or `--add`: the next word when it
    /// is all digits, at most `LastListing.capacity`, and the last word or
    /// followed by another option (which it then takes); else nil (a bare
    /// `--play`), so that `search --play 50 cent` searches "50 cent" and
    /// `album --play 302127` names the album.
    /// - Throws: `UsageError` for 0 in that place.
    mutating func entryNumber() throws(UsageError) -> Int? {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard i < arguments.count, !arguments[i].isEmpty, arguments[i].utf8.allSatisfy({ digits.contains($0) }),
            i + 1 == arguments.count || arguments[i + 1].hasPrefix("--"),
            let n = Int(arguments[i]), n <= LastListing.capacity
        else { return nil }
        guard n >= 1 else {
            throw UsageError(
                message: "\(arguments[i - 1]) takes an entry number from 1 to \(LastListing.capacity), not \"\(arguments[i])\"")
        }
        i += 1
        return n
    }

    /// The word after an option whose value may be left out: it, unless
    /// there is none or it is another option (`--limit`); then "".
    mutating func optionalValue() -> String {
        guard i < arguments.count, !arguments[i].hasPrefix("--") else { return "" }
        i += 1
        return arguments[i - 1]
    }

    /// The value of option `flag`, the word after it.
    /// - Throws: `UsageError` "FLAG needs a value" after the last word.
    mutating func value(_ flag: String) throws(UsageError) -> String {
        guard let word = next() else { throw UsageError(message: "\(flag) needs a value") }
        return word
    }

    /// The value of option `flag` as a number within `range`.
    /// - Throws: `UsageError` naming the flag, the range and the text.
    mutating func number(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try value(flag)
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(message: "\(flag) takes a number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return n
    }
}
