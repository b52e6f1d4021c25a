import Testing

@testable import PreviewCatalog
@testable import PreviewCore

/// Countries by code, name and alias, read from Debian's iso-codes (which
/// contrib/setup installs), and the locale's country.
@Suite struct CountryCodesTests {
    @Test func debiansListFindsCodesNamesAndAliases() throws {
        let table = try #require(try CountryCodes.load(CountryCodes.debianPath), "Debian's iso-codes (contrib/setup installs it)")
        #expect(try CountryCodes.load("/nonexistent/iso_3166-1.json") == nil)
        #expect(table.countries.count >= 249)
        for words in ["US", "us", "USA", "United States", "united states of america", " United   States ", "America"] {
            #expect(table.find(words)?.code == "US", "\(words)")
        }
        for words in ["UK", "GB", "GBR", "Great Britain", "United Kingdom"] {
            #expect(table.find(words)?.code == "GB", "\(words)")
        }
        #expect(table.find("South Korea")?.lastfmName == "Korea, Republic of")
        #expect(table.find("Czech Republic")?.lastfmName == "Czech Republic")
        #expect(table.find("Türkiye")?.lastfmName == "Turkey")
        #expect(table.find("Germany")?.displayName == "Germany")
        #expect(table.find("texas") == nil && table.find("") == nil)
        #expect(table.unknown("Germny").message.hasSuffix("; close: Germany"))
        // Every country Deezer keeps a chart of is one ISO lists.
        #expect(DeezerCountryCharts.playlists.keys.allSatisfy { table.find($0) != nil })
    }

    @Test func theLocalesTerritoryIsTheCountry() {
        #expect(CountryTable.territory(ofLocale: "de_DE.UTF-8") == "DE")
        #expect(CountryTable.territory(ofLocale: "en_US") == "US")
        #expect(CountryTable.territory(ofLocale: "sr_RS@latin") == "RS")
        #expect(CountryTable.territory(ofLocale: "ca_ES.UTF-8@valencia") == "ES")
        for none in ["C", "POSIX", "C.UTF-8", "en", "de_DEU", "_", "x_1A"] {
            #expect(CountryTable.territory(ofLocale: none) == nil, "\(none)")
        }
        let env = ["LC_ALL": "", "LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"]
        #expect(
            CountryTable.localeCountry(environment: { env[$0] }) == LocaleCountry(code: "FR", variable: "LC_MESSAGES", value: "fr_FR.UTF-8")
        )
        #expect(CountryTable.localeCountry(environment: { ["LANG": "C"][$0] }) == nil)
    }
}
