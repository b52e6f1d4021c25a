/// The options and words after a catalog subcommand (`search`, `chart`,
/// `picks`, ...), read once so that each subcommand only checks which of
/// them it takes.
struct CatalogOptions {
    typealias UsageError = ControlCommand.UsageError

    /// The words that are not options, in order.
    var words: [String] = []
    var add = false, play = false, json = false
    /// `album ID --shuffle`: queue in shuffled order and play.
    var shuffle = false
    /// `artist ID --radio`: the artist's mix instead of its top tracks.
    var radio = false
    /// `radios --top`.
    var top = false
    var artist: String?, album: String?, country: String?, tag: String?
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
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[i]
        }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let n = Int(text), range.contains(n) else {
                throw UsageError(message: "\(flag) takes a number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
            }
            return n
        }
        while i < arguments.count {
            let word = arguments[i]
            if word.hasPrefix("--") { given.append(word) }
            switch word {
            case "--add": add = true
            case "--play": play = true
            case "--json": json = true
            case "--shuffle": shuffle = true
            case "--radio": radio = true
            case "--top": top = true
            case "--artist": artist = try value(word)
            case "--album": album = try value(word)
            case "--country": country = try value(word)
            case "--tag": tag = try value(word)
            case "--genre": genre = try value(word)
            case "--limit": limit = try number(word, 1...100)
            case "--page": page = try number(word, 1...1000)
            case _ where word.hasPrefix("--"):
                throw UsageError(message: "unknown option \"\(word)\" for \(name)")
            default: words.append(word)
            }
            i += 1
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
