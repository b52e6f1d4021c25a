import PreviewCore

/// The tables previewctl prints on a terminal: each kind of result has the
/// columns that describe it (an album its type, year and track count, an
/// artist its albums and fans), so no value sits under another kind's
/// heading; a column no row of the table fills is left out.
extension CatalogFormat {
    /// One column: its heading, how to read it from a record, and how it
    /// takes width (`share` of the flexible width, or its widest value's
    /// cells when `share` is 0, up to `cap`).
    struct Column {
        var heading: String
        var value: (CatalogRecord) -> String
        var share = 0
        var cap = 12
        var right = false
    }

    /// The columns of one kind, between `#` and `URI`.
    static func columns(of kind: String) -> [Column] {
        let title = Column(heading: "TITLE", value: { $0.value("Title") ?? $0.value("Name") ?? "" }, share: 4)
        let name = Column(heading: "NAME", value: { $0.value("Name") ?? $0.value("Title") ?? "" }, share: 4)
        let tracks = Column(heading: "TRACKS", value: { $0.value("Tracks") ?? "" }, right: true)
        switch kind {
        case "track":
            let time = Column(
                heading: "TIME", value: { r in r.value("Time").flatMap { Seconds.parse($0) }.map { ControlFormat.clock($0) } ?? "" },
                right: true)
            return [
                title, Column(heading: "ARTIST", value: { $0.value("Artist") ?? "" }, share: 3),
                Column(heading: "ALBUM", value: { $0.value("Album") ?? "" }, share: 3), time,
            ]
        case "album":
            return [
                title, Column(heading: "ARTIST", value: { $0.value("Artist") ?? "" }, share: 3),
                Column(heading: "TYPE", value: { $0.value("Type") ?? "" }),
                Column(heading: "YEAR", value: { $0.value("Date").map { String($0.prefix(4)) } ?? "" }), tracks,
            ]
        case "artist":
            return [
                name, Column(heading: "ALBUMS", value: { $0.value("Albums") ?? "" }, right: true),
                Column(heading: "FANS", value: { $0.value("Fans") ?? "" }, right: true),
            ]
        case "playlist":
            return [title, Column(heading: "CREATOR", value: { $0.value("Creator") ?? "" }, share: 3), tracks]
        case "genre":
            return [name]
        default:  // radios, and anything a later reply adds
            return [title]
        }
    }

    /// Columns aligned to `width` terminal cells (no colours), titles cut
    /// with `…`. Records of one kind share a header line; a listing that
    /// changes kind (an artist's page) starts a new header there. Rows are
    /// numbered from `first` on (1 for the first row), through every header.
    /// `width` is taken within 1 ... 1000 (a `COLUMNS` of any size).
    public static func table(_ records: [CatalogRecord], width: Int, first: Int = 1) -> String {
        guard !records.isEmpty else { return "no results\n" }
        let width = min(max(width, 1), 1000)
        let numberWidth = String(first + records.count - 1).count + 1
        var out = ""
        var start = 0
        while start < records.count {
            var end = start + 1
            while end < records.count, records[end].kind == records[start].kind { end += 1 }
            out += run(
                records[start..<end], kind: records[start].kind, width: width, numberWidth: numberWidth,
                first: first + start)
            start = end
        }
        return out
    }

    /// The header and rows of records of one `kind`.
    private static func run(
        _ records: ArraySlice<CatalogRecord>, kind: String, width: Int, numberWidth: Int,
        first: Int
    ) -> String {
        let uriWidth = records.map { displayWidth($0.uri) }.max()!
        // The columns some row fills, each with its values, row by row.
        var columns: [Column] = []
        var cells: [[String]] = []
        for column in Self.columns(of: kind) {
            let values = records.map(column.value)
            if values.contains(where: { !$0.isEmpty }) {
                columns.append(column)
                cells.append(values)
            }
        }
        var widths: [Int] = []
        for (i, column) in columns.enumerated() {
            let widest = max(column.heading.count, cells[i].map(displayWidth).max() ?? 0)
            widths.append(column.share > 0 ? 0 : min(column.cap, widest))
        }
        let fixed = numberWidth + 2 + widths.reduce(0, +) + columns.count + 1 + uriWidth
        let flexible = max(30, width - fixed)
        // Text columns as wide as their widest cell when all fit, else
        // sharing the width by their shares.
        let natural = columns.indices.map { i in
            columns[i].share > 0 ? max(columns[i].heading.count, cells[i].map(displayWidth).max() ?? 0) : 0
        }
        if natural.reduce(0, +) <= flexible {
            for i in columns.indices where columns[i].share > 0 { widths[i] = natural[i] }
        } else {
            let shares = max(1, columns.map(\.share).reduce(0, +))
            var left = flexible
            for (i, column) in columns.enumerated() where column.share > 0 {
                widths[i] = flexible * column.share / shares
                left -= widths[i]
            }
            if let last = columns.lastIndex(where: { $0.share > 0 }) { widths[last] += left }  // rounding's rest
        }
        func line(_ number: String, _ row: [String], _ uri: String) -> String {
            var text = pad(number, numberWidth, right: true) + "  "
            for (i, cell) in row.enumerated() { text += pad(cell, widths[i], right: columns[i].right) + " " }
            return text + " " + uri + "\n"
        }
        var out = line("#", columns.map(\.heading), "URI")
        for offset in 0..<records.count {
            out += line(String(first + offset), cells.map { $0[offset] }, records[records.startIndex + offset].uri)
        }
        return out
    }
}
