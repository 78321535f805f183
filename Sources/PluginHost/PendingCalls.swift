import CSwitchyardPlugin
import Foundation

/// The calls waiting for a plugin's completion, keyed by a token passed as the completion context.
///
/// A token rather than a retained pointer: a completion that arrives twice, or after the caller was
/// answered, finds nothing and is ignored instead of touching freed memory.
final class PendingCalls: @unchecked Sendable {
    static let shared = PendingCalls()

    private let lock = NSLock()
    private var nextToken: UInt = 1
    private var waiting: [UInt: @Sendable (Data) -> Void] = [:]

    /// Registers `handler` and returns the context to pass with ``completion``.
    func register(_ handler: @escaping @Sendable (Data) -> Void) -> UnsafeMutableRawPointer {
        lock.lock()
        defer { lock.unlock() }
        let token = nextToken
        nextToken = nextToken == UInt.max ? 1 : nextToken + 1
        waiting[token] = handler
        // Tokens start at 1, so the pointer is never null.
        return UnsafeMutableRawPointer(bitPattern: token)!
    }

    /// Calls the handler registered under `context`, if it is still waiting.
    func resume(_ context: UnsafeMutableRawPointer?, with data: Data) {
        let token = UInt(bitPattern: context)
        lock.lock()
        let handler = waiting.removeValue(forKey: token)
        lock.unlock()
        handler?(data)
    }

    /// The C completion passed to every `invoke`.
    static let completion: sy_completion_fn = { context, json, length in
        let data = json.map { Data(bytes: $0, count: length) } ?? Data()
        PendingCalls.shared.resume(context, with: data)
    }
}
