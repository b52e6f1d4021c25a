import PreviewDBus
import Testing

/// The values a D-Bus message is built from: their signatures, and what a
/// handler reads out of them (through variants).
@Suite struct DBusValueTests {
    @Test func signatures() {
        #expect(DBusValue.string("x").signature == "s")
        #expect(DBusValue.objectPath("/").signature == "o")
        #expect(DBusValue.boolean(true).signature == "b")
        #expect(DBusValue.int32(1).signature == "i")
        #expect(DBusValue.uint32(1).signature == "u")
        #expect(DBusValue.int64(1).signature == "x")
        #expect(DBusValue.double(1).signature == "d")
        #expect(DBusValue.strings([]).signature == "as")
        #expect(DBusValue.dictionary([]).signature == "a{sv}")
        #expect(DBusValue.variant(.int64(1)).signature == "v")
    }

    @Test func readingThroughVariants() {
        #expect(DBusValue.variant(.variant(.double(0.5))).number == 0.5)
        #expect(DBusValue.variant(.int64(-3)).number == -3)
        #expect(DBusValue.variant(.objectPath("/a")).text == "/a")
        #expect(DBusValue.variant(.boolean(true)).truth == true)
        #expect(DBusValue.string("1").number == nil)
        #expect(DBusValue.int32(1).truth == nil)
    }
}
