import Testing
@testable import PreviewWeb

@Suite struct WebAssetsTests {
    @Test func gzipIsTakenWhenListedWithoutAZeroWeight() {
        #expect(WebAssets.acceptsGzip("gzip, deflate, br"))
        #expect(WebAssets.acceptsGzip("br;q=1.0, GZIP;q=0.5"))
        #expect(WebAssets.acceptsGzip("*"))
        #expect(!WebAssets.acceptsGzip(nil))
        #expect(!WebAssets.acceptsGzip("identity"))
        #expect(!WebAssets.acceptsGzip("gzip;q=0"))
        #expect(!WebAssets.acceptsGzip("gzip; q=0.000"))
        #expect(!WebAssets.acceptsGzip("gzipped"))
    }

    @Test func theVersionChangesWithANameOrAByte() {
        let base = WebAssets.version(of: [("app.css", [1, 2, 3])])
        #expect(base.count == 16 && base.allSatisfy(\.isHexDigit))
        #expect(WebAssets.version(of: [("app.css", [1, 2, 3])]) == base)
        #expect(WebAssets.version(of: [("app.css", [1, 2, 4])]) != base)
        #expect(WebAssets.version(of: [("app.js", [1, 2, 3])]) != base)
        // The name's end is marked: moving a byte from the name to the body changes it.
        #expect(WebAssets.version(of: [("ab", [1])]) != WebAssets.version(of: [("a", Array("b".utf8) + [1])]))
    }

    @Test func commentLinesGoCodeStays() {
        let source = """
            // a line comment
            const a = 1; // kept: code before it
            /** a block
             *  over lines */
            /** @type {any} */ (x).y = 2;
            /* one line */
              let b = "// not a comment";
            """
        #expect(
            String(decoding: WebAssets.withoutCommentLines(Array(source.utf8)), as: UTF8.self) == """
                const a = 1; // kept: code before it
                /** @type {any} */ (x).y = 2;
                let b = "// not a comment";
                """)
    }

    @Test func thePageNamesItsVersionedFilesAndCarriesTheToken() throws {
        let assets = WebAssets(token: "0123-abcd")
        let page = String(decoding: try #require(assets.files["/"]).body, as: UTF8.self)
        #expect(page.contains(#"<meta name="previewweb-token" content="0123-abcd">"#))
        #expect(!page.contains("{{"))
        // The first view's files are named in the page; the others (detail pages, the queue, a live redraw's, the menus) load when needed.
        let lazy = ["js/detail.js", "js/queue.js", "js/keep.js", "js/menu.js"]
        for name in ["app.css"] + WebAssets.modules.map({ "js/" + $0.name }) {
            let path = "/v/\(assets.version)/\(name)"
            #expect(page.contains(#""\#(path)""#) == !lazy.contains(name), "\(path)")
            #expect(try #require(assets.files[path]).immutable)
        }
        #expect(assets.files["/"]?.immutable == false && assets.files["/icon.svg"] != nil)
        // Gzip starts with its magic bytes and is smaller for text this size.
        let css = try #require(assets.files["/v/\(assets.version)/app.css"])
        let gzipped = try #require(css.gzipped)
        #expect(Array(gzipped.prefix(2)) == [0x1f, 0x8b] && gzipped.count < css.body.count / 2)
    }
}
