import PreviewCore

/// `open N` (an entry of the last listing, shown as a listing of its own)
/// and `info ID` (a bare id, looked up as each kind it could be).
extension CatalogCommand {
    /// What `open` shows for an entry's `uri`: an album's page, an artist's
    /// page, a Deezer playlist's or radio's songs, a genre's top tracks, or
    /// the details of a track (or of anything else).
    public init(opening uri: String, add: Bool, play: Bool, json: Bool) {
        if uri.hasPrefix("deezer:genre:"), let id = Int(uri.dropFirst("deezer:genre:".count)) {
            self.init(query: .list(command: "catalogchart tracks genre \(id)", limit: 25, page: 1))
        } else {
            switch try? CatalogURI(parsing: uri) {
            case .album(let id)?: self.init(query: .album(id))
            case .artist(let id)?: self.init(query: .artist(id))
            case .playlist?: self.init(query: .songs(uri))
            case .radio?: self.init(query: .radio(uri))
            default: self.init(query: .info(uri))
            }
        }
        (self.add, self.play, self.json) = (add, play, json)
    }
}

extension CatalogFormat {
    /// What `info ID` prints for the kinds the id was `found` as (each
    /// kind's URI with its `cataloginfo` fields): the one item's fields as
    /// `info URI` prints them, or each under its URI when the id names
    /// several things; with `json`, one document of them all.
    public static func infoByID(_ found: [(uri: String, fields: [(String, String)])], json: Bool) -> String {
        if json { return self.json(found.flatMap { CatalogRecord.split($0.fields) }, total: nil) }
        func lines(_ fields: [(String, String)]) -> String { fields.map { "\($0.0): \($0.1)\n" }.joined() }
        guard found.count > 1 else { return found.first.map { lines($0.fields) } ?? "" }
        return found.map { "\($0.uri)\n" + lines($0.fields) }.joined(separator: "\n")
    }
}
