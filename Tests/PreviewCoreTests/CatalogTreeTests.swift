import Testing
@testable import PreviewCore

/// The catalog tree's names: ranked so that sorting keeps the order, one
/// clean path component each, unique among siblings; sections by path.
@Suite struct CatalogTreeTests {
    @Test func rankedNamesSortInTheCatalogsOrder() {
        let names = (1...120).map { (i: Int) in CatalogTree.entryName(title: "T\(i)", artist: "A", rank: i, of: 120) }
        #expect(names[0] == "001 T1 - A")
        #expect(names[119] == "120 T120 - A")
        #expect(names.sorted() == names)
        #expect(CatalogTree.entryName(title: "Discovery", artist: "Daft Punk", rank: 3, of: 10) == "03 Discovery - Daft Punk")
        #expect(CatalogTree.entryName(title: "Pop", artist: nil, rank: nil, of: 5) == "Pop")
        #expect(CatalogTree.entryName(title: nil, artist: " ", rank: nil, of: 1) == "Untitled")
    }

    @Test func catalogTextBecomesOneCleanComponent() {
        #expect(CatalogTree.clean("Rap/Hip Hop") == "Rap\u{2215}Hip Hop")
        #expect(CatalogTree.clean("  a\u{1B}[2Jb\n\u{9B}c  ") == "a [2Jb  c")
        let long = CatalogTree.clean(String(repeating: "é", count: 500))
        #expect(long.utf8.count <= CatalogTree.maxNameBytes && long.utf8.count == 200)
    }

    @Test func repeatedNamesGetANumber() {
        #expect(CatalogTree.unique(["Hits", "Pop", "Hits", "Hits", "Hits (2)"]) == ["Hits", "Pop", "Hits (3)", "Hits (4)", "Hits (2)"])
        #expect(CatalogTree.unique(["a", "b"]) == ["a", "b"])
    }

    @Test func sectionsAndEntriesByPath() {
        #expect(CatalogTree.section("Top Picks") == .picks)
        #expect(CatalogTree.section("Top Picks/") == .picks)
        #expect(CatalogTree.section("Listen Now/Top Picks") == .picks)
        #expect(CatalogTree.section("Charts/Top Albums") == .chartAlbums)
        #expect(CatalogTree.section("Charts/By Country") == .countries)
        #expect(CatalogTree.isTreePath("Charts/By Country/Canada"))
        #expect(CatalogTree.isTreePath("Top Picks/03 Discovery - Daft Punk/"))
        #expect(CatalogTree.section("Listen Now/More like \"Discovery\"") == .moreLike)
        #expect(CatalogTree.section("More like \"Discovery\"") == nil)
        #expect(CatalogTree.section("deezer:picks") == nil)
        #expect(CatalogTree.isTreePath("Top Picks/03 Discovery - Daft Punk"))
        #expect(CatalogTree.isTreePath("Charts/Top Tracks"))
        #expect(CatalogTree.isTreePath("Library"))
        #expect(!CatalogTree.isTreePath("deezer:album:302127"))
        #expect(!CatalogTree.isTreePath("http://host/a/b.mp3"))
        #expect(!CatalogTree.isTreePath("my playlist"))
        #expect(CatalogTree.parent(of: "Top Picks/03 X") == "Top Picks")
    }

    @Test func theIndexIsBounded() {
        var index = NameIndex()
        for i in 0..<NameIndex.capacity { index.record("Radios/\(i)", .catalog(.radio(i))) }
        #expect(index.item("Radios/7") == .catalog(.radio(7)))
        #expect(index.item("Radios/7/") == .catalog(.radio(7)))
        index.record("Radios/new", .genreChart(1))
        #expect(index.count == 1)
        #expect(index.item("Radios/7") == nil)
        #expect(index.item("Radios/new") == .genreChart(1))
    }
}
