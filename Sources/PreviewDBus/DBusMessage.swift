import CSystemd
import PreviewPlatform

/// Appends `DBusValue`s to an sd-bus message being built (a reply or a
/// signal); borrowed, the caller owns the message's reference.
struct DBusMessageWriter {
    private let message: OpaquePointer

    init(_ message: OpaquePointer) { self.message = message }

    /// Appends `value` (`sd_bus_message_append_basic`, and
    /// `sd_bus_message_open_container`/`close_container` for arrays,
    /// dictionaries and variants).
    /// - Throws: `SystemError` naming the call that failed (EINVAL for text
    ///   that is no valid UTF-8 or object path).
    mutating func append(_ value: DBusValue) throws(SystemError) {
        switch value {
        case .string(let s): try basic("s", s)
        case .objectPath(let s): try basic("o", s)
        case .boolean(let b): try basic("b", Int32(b ? 1 : 0))
        case .int32(let n): try basic("i", n)
        case .uint32(let n): try basic("u", n)
        case .int64(let n): try basic("x", n)
        case .double(let d): try basic("d", d)
        case .strings(let list):
            try open("a", "s")
            for s in list { try basic("s", s) }
            try close()
        case .dictionary(let entries):
            try open("a", "{sv}")
            for entry in entries {
                try open("e", "sv")
                try basic("s", entry.key)
                try append(.variant(entry.value))
                try close()
            }
            try close()
        case .variant(let inner):
            try open("v", inner.signature)
            try append(inner)
            try close()
        }
    }

    private func basic(_ type: Unicode.Scalar, _ text: String) throws(SystemError) {
        // Strings go in as the characters themselves, not a pointer to them.
        try Syscall.returningError("sd_bus_message_append_basic", negated: true) {
            text.withCString { sd_bus_message_append_basic(message, CChar(type.value), $0) }
        }
    }

    private func basic<T>(_ type: Unicode.Scalar, _ number: T) throws(SystemError) {
        var value = number
        try Syscall.returningError("sd_bus_message_append_basic", negated: true) {
            withUnsafePointer(to: &value) { sd_bus_message_append_basic(message, CChar(type.value), $0) }
        }
    }

    private func open(_ type: Unicode.Scalar, _ contents: String) throws(SystemError) {
        try Syscall.returningError("sd_bus_message_open_container", negated: true) {
            sd_bus_message_open_container(message, CChar(type.value), contents)
        }
    }

    private func close() throws(SystemError) {
        try Syscall.returningError("sd_bus_message_close_container", negated: true) {
            sd_bus_message_close_container(message)
        }
    }
}

/// Reads the arguments of a received sd-bus message as `DBusValue`s;
/// borrowed, sd-bus owns the message.
struct DBusMessageReader {
    private let message: OpaquePointer
    /// Variants open around the value being read. MPRIS needs one level;
    /// a client may nest more (sd-bus allows 128), and each costs a frame.
    private var depth = 0
    /// The most variants read inside one another; a deeper value is not read.
    static let maxDepth = 8

    init(_ message: OpaquePointer) { self.message = message }

    /// Every argument left, stopping at the first one of a type `DBusValue`
    /// does not have (a handler then finds too few and refuses the call).
    mutating func readAll() -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = next() { values.append(value) }
        return values
    }

    /// The next value in the message or the open container, or nil at its
    /// end or at a type not read (`sd_bus_message_peek_type`,
    /// `sd_bus_message_read_basic`, `sd_bus_message_enter_container`).
    private mutating func next() -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        let inner = contents.map { String(cString: $0) }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"): return text("s").map(DBusValue.string)
        case UInt8(ascii: "o"): return text("o").map(DBusValue.objectPath)
        case UInt8(ascii: "b"): return read("b", Int32(0)).map { .boolean($0 != 0) }
        case UInt8(ascii: "i"): return read("i", Int32(0)).map(DBusValue.int32)
        case UInt8(ascii: "u"): return read("u", UInt32(0)).map(DBusValue.uint32)
        case UInt8(ascii: "x"): return read("x", Int64(0)).map(DBusValue.int64)
        case UInt8(ascii: "t"): return read("t", UInt64(0)).map { .int64(Int64(clamping: $0)) }
        case UInt8(ascii: "d"): return read("d", Double(0)).map(DBusValue.double)
        case UInt8(ascii: "v"):
            guard depth < DBusMessageReader.maxDepth, let inner, enter("v", inner) else { return nil }
            depth += 1
            defer {
                depth -= 1
                sd_bus_message_exit_container(message)
            }
            return next().map(DBusValue.variant)
        case UInt8(ascii: "a") where inner == "s":
            guard enter("a", "s") else { return nil }
            defer { sd_bus_message_exit_container(message) }
            var list: [String] = []
            while let s = next()?.text { list.append(s) }
            return .strings(list)
        default:
            return nil
        }
    }

    /// A string or object path; sd-bus hands out a pointer into the message.
    private func text(_ type: Unicode.Scalar) -> String? {
        var chars: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(type.value), &chars) > 0 else { return nil }
        return chars.map { String(cString: $0) }
    }

    private func read<T>(_ type: Unicode.Scalar, _ initial: T) -> T? {
        var value = initial
        let r = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, CChar(type.value), $0) }
        return r > 0 ? value : nil
    }

    private func enter(_ type: Unicode.Scalar, _ contents: String) -> Bool {
        sd_bus_message_enter_container(message, CChar(type.value), contents) > 0
    }
}
