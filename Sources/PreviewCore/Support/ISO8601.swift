/// ISO 8601 times as MPD reads and writes them (`Last-Modified`,
/// `modified-since`), in Unix seconds, UTC, proleptic Gregorian.
public enum ISO8601 {
    /// Unix seconds of `YYYY-MM-DD`, optionally followed by `T` and
    /// `HH:MM` or `HH:MM:SS`, and by `Z` or an offset `±HH:MM` (or
    /// `±HHMM`); a time without a zone is UTC. Years 0 to 9999; nil for
    /// anything else.
    public static func unixSeconds(_ text: String) -> Int? {
        var s = Substring(text)
        func number(_ digits: Int) -> Int? {
            let part = s.prefix(digits)
            guard part.count == digits, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            s = s.dropFirst(digits)
            return Int(part)
        }
        func skip(_ c: Character) -> Bool {
            guard s.first == c else { return false }
            s = s.dropFirst()
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = days(year: year, month: month, day: day) * 86400
        if skip("T") {
            guard let hour = number(2), skip(":"), let minute = number(2), hour <= 23, minute <= 59 else { return nil }
            seconds += hour * 3600 + minute * 60
            if skip(":") {
                guard let second = number(2), second <= 60 else { return nil }
                seconds += second
            }
            if !skip("Z"), let sign = s.first, sign == "+" || sign == "-" {
                s = s.dropFirst()
                guard let hours = number(2), hours <= 23 else { return nil }
                _ = skip(":")
                let minutes = s.isEmpty ? 0 : number(2)
                guard let minutes, minutes <= 59 else { return nil }
                seconds -= (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
            }
        }
        return s.isEmpty ? seconds : nil
    }

    /// Days from 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = month > 2 ? month - 3 : month + 9
        let doy = (153 * m + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }
}
