/// One D-Bus value of the few types MPRIS needs (D-Bus specification,
/// "Type System"). Each case carries its own signature, so a message can be
/// built from values alone, an empty array included.
public indirect enum DBusValue: Equatable, Sendable {
    /// `s`: UTF-8 text without NUL.
    case string(String)
    /// `o`: an object path such as `/org/mpris/MediaPlayer2`.
    case objectPath(String)
    /// `b`.
    case boolean(Bool)
    /// `i`.
    case int32(Int32)
    /// `u`.
    case uint32(UInt32)
    /// `x`: MPRIS positions and lengths, in microseconds.
    case int64(Int64)
    /// `d`.
    case double(Double)
    /// `as`.
    case strings([String])
    /// `a{sv}`: keys in the order given, each value wrapped in a variant.
    case dictionary([DBusEntry])
    /// `v`: a value with its signature beside it.
    case variant(DBusValue)

    /// The value's D-Bus type signature (`s`, `as`, `a{sv}`, ...).
    public var signature: String {
        switch self {
        case .string: return "s"
        case .objectPath: return "o"
        case .boolean: return "b"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .double: return "d"
        case .strings: return "as"
        case .dictionary: return "a{sv}"
        case .variant: return "v"
        }
    }

    /// The value inside any variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of a `s` or `o` value (inside variants too), else nil.
    public var text: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s): return s
        default: return nil
        }
    }

    /// The number of any integer or `d` value (inside variants too), else nil.
    public var number: Double? {
        switch unwrapped {
        case .int32(let n): return Double(n)
        case .uint32(let n): return Double(n)
        case .int64(let n): return Double(n)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The truth of a `b` value (inside variants too), else nil.
    public var truth: Bool? {
        if case .boolean(let b) = unwrapped { return b }
        return nil
    }
}

/// One `{sv}` entry of an `a{sv}` dictionary.
public struct DBusEntry: Equatable, Sendable {
    /// The entry's name (an MPRIS property or a metadata field such as `xesam:title`).
    public var key: String
    /// The value, without its variant: the writer wraps it.
    public var value: DBusValue

    /// - Parameters: key: the entry's name; value: sent as a variant.
    public init(_ key: String, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

/// A method call a D-Bus object received, its arguments read.
public struct DBusMethodCall: Sendable {
    /// The object path called.
    public var path: String
    /// The interface named (D-Bus allows none: then nil).
    public var interface: String?
    /// The method's name.
    public var member: String
    /// The arguments, in order, as far as they are of `DBusValue`'s types:
    /// reading stops at the first argument of another type.
    public var arguments: [DBusValue]

    /// - Parameters: as the properties.
    public init(path: String, interface: String?, member: String, arguments: [DBusValue]) {
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

/// How an object answers a method call.
public enum DBusReply: Equatable, Sendable {
    /// A method return carrying these values (none for a void method).
    case values([DBusValue])
    /// An error reply: a D-Bus error name (`org.freedesktop.DBus.Error.InvalidArgs`)
    /// and a message for people.
    case error(name: String, message: String)
    /// Not this object's method: sd-bus answers as for an unknown one.
    case unhandled

    /// `org.freedesktop.DBus.Error.InvalidArgs` with `message`.
    public static func invalidArguments(_ message: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// `org.freedesktop.DBus.Error.Failed` with `message`.
    public static func failed(_ message: String) -> DBusReply {
        .error(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }
}
