import PreviewCatalog
import PreviewCore

extension DaemonOptions {
    /// The country of "your" chart: `--country` (or the settings file's
    /// `country`) when given, else the locale's; nil when neither names one
    /// that ISO 3166-1 (Debian's iso-codes) knows.
    package func defaultCountry(in table: CountryTable) -> Country? {
        if let country { return table.find(country) }
        return localeCountry.flatMap { table.find($0.code) }
    }

    /// Checks `--country` against ISO 3166-1, so that a typo stops previewd
    /// at start-up instead of failing every chart later.
    /// - Throws: `UsageError` naming the value and what works.
    public func checkCountry() throws(UsageError) {
        guard let country else { return }
        let table = CountryCodes.shared
        guard table.find(country) == nil else { return }
        let place = sources["country"].map { $0 == "command line" ? "--country" : "\($0): country" } ?? "--country"
        // Without Debian's iso-codes nothing can be checked: the name goes
        // to Last.fm as typed, as `catalogchart` then does.
        guard !table.countries.isEmpty else { return }
        throw UsageError(description: "\(place): \(table.unknown(country).message)")
    }
}
