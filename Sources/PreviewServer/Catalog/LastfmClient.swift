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
    /// - Parameter completion: the entries, or the ACK to send.
    func topTracks(country: String?, tag: String?, limit: Int, completion: @escaping (Result<[Entry], ProtocolError>) -> Void) {
        guard let key else {
            completion(.failure(ProtocolError(.system,
                "Last.fm charts need an API key: start previewd with --lastfm-key KEY, set PREVIEWD_LASTFM_KEY, or write the key to \(keyFileHint)")))
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
            if let e = result.transportError, result.body.isEmpty {
                completion(.failure(ProtocolError(.system, "cannot reach Last.fm: \(e)")))
                return
            }
            let data = Data(result.body)
            if let error = try? decoder.decode(ErrorBody.self, from: data) {
                let code: AckCode = error.error == 6 ? .noExist : .system
                completion(.failure(ProtocolError(code, "Last.fm: \(error.message ?? "error") (Last.fm error \(error.error))")))
                return
            }
            guard result.status == 200, let top = try? decoder.decode(TopTracks.self, from: data) else {
                completion(.failure(ProtocolError(.system, "Last.fm: unexpected answer (HTTP status \(result.status))")))
                return
            }
            completion(.success(top.tracks.track.map { Entry(artist: $0.artist.name, title: $0.name) }))
        }
    }
}
