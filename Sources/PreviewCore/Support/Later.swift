/// A value that arrives later, delivered on the thread that produces it
/// (for the daemon, the control thread, where every catalog answer comes
/// in). It wraps a completion-handler call, so that a request of several
/// steps reads top to bottom (`then`, `map`, `all`) instead of nesting one
/// closure in the next. Nothing runs until `run` is called; each `run` starts
/// the work anew. No threads, locks or queues: it only orders closures.
public struct Later<Value> {
    private let start: (@escaping (Value) -> Void) -> Void

    /// Wraps `start`, which calls its argument once with the value.
    public init(_ start: @escaping (@escaping (Value) -> Void) -> Void) {
        self.start = start
    }

    /// A value already at hand.
    public static func now(_ value: Value) -> Later {
        Later { $0(value) }
    }

    /// Starts the work; `done` gets the value.
    public func run(_ done: @escaping (Value) -> Void) {
        start(done)
    }

    /// The value changed by `transform` once it arrives.
    public func map<Next>(_ transform: @escaping (Value) -> Next) -> Later<Next> {
        Later<Next> { done in self.run { done(transform($0)) } }
    }

    /// The step after this one: `next` gets the value and says what comes
    /// of it (often another request).
    public func then<Next>(_ next: @escaping (Value) -> Later<Next>) -> Later<Next> {
        Later<Next> { done in self.run { next($0).run(done) } }
    }

    /// The value, or `fallback` when it has not arrived `seconds` after
    /// `run`: whichever comes first is delivered, the other dropped.
    /// `schedule` runs a closure after a delay on the thread values come on.
    public func within(
        _ seconds: Double, or fallback: Value,
        schedule: @escaping (Double, @escaping () -> Void) -> Void
    ) -> Later {
        Later { done in
            var delivered = false
            let once = { (value: Value) in
                guard !delivered else { return }
                delivered = true
                done(value)
            }
            schedule(seconds) { once(fallback) }
            self.run(once)
        }
    }

    /// Every value of `items`, in their order, once the last has arrived;
    /// all of them are started at once.
    public static func all(_ items: [Later<Value>]) -> Later<[Value]> {
        Later<[Value]> { done in
            guard !items.isEmpty else { return done([]) }
            var values = [Value?](repeating: nil, count: items.count)
            var left = items.count
            for (i, item) in items.enumerated() {
                item.run { value in
                    values[i] = value
                    left -= 1
                    if left == 0 { done(values.map { $0! }) }
                }
            }
        }
    }
}

extension Later {
    /// The step after a success: `next` gets the success value; a failure
    /// passes through unchanged.
    public func thenIfSuccess<Success, Next, Failure>(
        _ next: @escaping (Success) -> Later<Result<Next, Failure>>
    ) -> Later<Result<Next, Failure>> where Value == Result<Success, Failure> {
        then { result in
            switch result {
            case .success(let value): return next(value)
            case .failure(let error): return .now(.failure(error))
            }
        }
    }
}
