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
    private var waiting: [UInt: CheckedContinuation<Data, Never>] = [:]

    /// Registers `continuation` and returns the context to pass with ``completion``.
    func register(_ continuation: CheckedContinuation<Data, Never>) -> UnsafeMutableRawPointer {
        lock.lock()
        defer { lock.unlock() }
        let token = nextToken
        nextToken = nextToken == UInt.max ? 1 : nextToken + 1
        waiting[token] = continuation
        // Tokens start at 1, so the pointer is never null.
        return UnsafeMutableRawPointer(bitPattern: token)!
    }

    /// Resumes the call registered under `context`, if it is still waiting.
    func resume(_ context: UnsafeMutableRawPointer?, with data: Data) {
        let token = UInt(bitPattern: context)
        lock.lock()
        let continuation = waiting.removeValue(forKey: token)
        lock.unlock()
        continuation?.resume(returning: data)
    }

    /// The C completion passed to every `invoke`.
    static let completion: sy_completion_fn = { context, json, length in
        let data = json.map { Data(bytes: $0, count: length) } ?? Data()
        PendingCalls.shared.resume(context, with: data)
    }
}
