import FoundationEssentials
import PreviewCore

/// Last.fm's top-track lists (`geo.getTopTracks`, `tag.getTopTracks`), for
/// country and genre charts. Last.fm sends numbers as strings, may omit
/// `mbid`, and reports errors as `{"error":N,"message":…}` with HTTP 200 or 4xx.
final class LastfmClient {
    /// One chart entry.
    struct Entry: Equatable {
        var artist: String
        var title: String
    }

    private struct TopTracks: Decodable {
        struct Tracks: Decodable { var track: [Item] }
        struct Item: Decodable {
            struct Artist: Decodable { var name: String }
            var name: String
            var artist: Artist
        }
        var tracks: Tracks
    }

    private struct ErrorBody: Decodable {
        var error: Int
        var message: String?
    }

    let base: String
    let key: String?
    /// Where a key file would be read (for the message when none is set).
    var keyFileHint = "~/.config/previewd/lastfm.key"
    private let get: DeezerClient.HTTPGet
    private let decoder = JSONDecoder()

    init(base: String, key: String?, get: @escaping DeezerClient.HTTPGet) {
        self.base = base
        self.key = key
        self.get = get
    }

    /// The top tracks of a country (ISO 3166 name, e.g. `canada`) or a tag.
    /// - Parameter completion: the entries, or why there are none (its
    ///   `protocolError` is the ACK to send).
    func topTracks(country: String?, tag: String?, limit: Int, completion: @escaping (Result<[Entry], LastfmError>) -> Void) {
        guard let key else {
            completion(.failure(.noKey(keyFile: keyFileHint)))
            return
        }
        var query = "?method="
        if let country {
            query += "geo.gettoptracks&country=" + percentEncodeQueryValue(country)
        } else {
            query += "tag.gettoptracks&tag=" + percentEncodeQueryValue(tag ?? "")
        }
        query += "&limit=\(limit)&api_key=" + percentEncodeQueryValue(key) + "&format=json"
        get(base + query) { [decoder] result in
            completion(LastfmClient.entries(in: result, decoder: decoder))
        }
    }

    /// The entries of a top-tracks answer. An error object wins over the
    /// HTTP status: Last.fm sends those with 200 as well as 4xx.
    private static func entries(in result: HTTPResult, decoder: JSONDecoder) -> Result<[Entry], LastfmError> {
        if let e = result.transportError, result.body.isEmpty { return .failure(.transport(e)) }
        let data = Data(result.body)
        if let error = try? decoder.decode(ErrorBody.self, from: data) {
            return .failure(.api(code: error.error, message: error.message))
        }
        guard result.status == 200, let top = try? decoder.decode(TopTracks.self, from: data) else {
            return .failure(.malformed(status: result.status))
        }
        return .success(top.tracks.track.map { Entry(artist: $0.artist.name, title: $0.name) })
    }
}

/// Why a Last.fm chart could not be had. The client reports what happened;
/// `protocolError` alone decides the ACK code and words, as
/// `CatalogError.protocolError(item:)` does for Deezer.
enum LastfmError: Error, Equatable {
    /// No API key is configured; `keyFile` is where one would be read.
    case noKey(keyFile: String)
    /// No HTTP answer arrived: the transport's description.
    case transport(String)
    /// Last.fm's error object: its numeric code, and its message when it sent one.
    case api(code: Int, message: String?)
    /// Neither an error object nor a top-track list; `status` is the HTTP status.
    case malformed(status: Int)

    /// Last.fm error code 6, "invalid parameters": what it answers for a
    /// country or tag it does not know.
    static let invalidParameters = 6
}
