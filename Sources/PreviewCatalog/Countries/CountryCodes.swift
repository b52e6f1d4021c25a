import FoundationEssentials
import PreviewCore
import PreviewPlatform

/// ISO 3166-1 as Debian's iso-codes package ships it
/// (`/usr/share/iso-codes/json/iso_3166-1.json`: `{"3166-1": [{"alpha_2",
/// "alpha_3", "name", "common_name"?, "official_name"?, ...}]}`), read once.
package enum CountryCodes {
    /// Where Debian's iso-codes keeps the list.
    package static let debianPath = "/usr/share/iso-codes/json/iso_3166-1.json"

    /// The list at `debianPath`, read the first time it is asked for; an
    /// empty table (every name unknown) when the file cannot be read.
    package static let shared: CountryTable = ((try? load(debianPath)) ?? nil) ?? CountryTable([])

    private struct File: Decodable {
        struct Entry: Decodable {
            let alpha_2: String
            let alpha_3: String
            let name: String
            let common_name: String?
            let official_name: String?
        }
        let entries: [Entry]
        enum CodingKeys: String, CodingKey { case entries = "3166-1" }
    }

    /// The table in the iso-codes file at `path`; nil when there is no such file.
    /// - Throws: `SystemError` when it cannot be read, a `DecodingError`
    ///   when it is not iso-codes' shape.
    package static func load(_ path: String) throws -> CountryTable? {
        guard let bytes = try AtomicFile.read(path) else { return nil }
        let file = try JSONDecoder().decode(File.self, from: Data(bytes))
        return CountryTable(
            file.entries.map {
                Country(code: $0.alpha_2, code3: $0.alpha_3, name: $0.name, commonName: $0.common_name, officialName: $0.official_name)
            })
    }
}
