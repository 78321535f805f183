import CSwitchyardPlugin
import Foundation
import PluginWorkerCore

/// One created instance of a loaded plugin image, with the host services it was given.
///
/// The image itself is never unloaded. When the last reference to the handle goes, no call can be in
/// flight (every call holds the handle), so the instance is destroyed and then its host services freed.
final class PluginInstanceHandle: @unchecked Sendable {
    private let instance: UnsafeMutableRawPointer
    private let bridge: HostServicesBridge
    private let invokeFunction: InvokeFunction
    private let cancelFunction: CancelFunction?
    private let destroyFunction: DestroyFunction

    typealias InvokeFunction = PluginInvokeFunction
    typealias CancelFunction = PluginCancelFunction
    typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Creates an instance from `table` bound to `bridge`, or returns `nil` when `create` fails.
    init?(table: sy_plugin_table, bridge: HostServicesBridge) {
        guard let create = table.create, let invoke = table.invoke, let destroy = table.destroy,
            let instance = create(bridge.table)
        else { return nil }
        self.instance = instance
        self.bridge = bridge
        invokeFunction = invoke
        cancelFunction = table.cancel
        destroyFunction = destroy
    }

    deinit {
        destroyFunction(instance)
    }

    /// Starts the call `callID` (a ``PluginCalls`` id, also the completion's context) of `method` with
    /// `payload` on the calling thread.
    func start(_ callID: UInt64, method: String, payload: Data) {
        var bytes = payload
        bytes.append(0)
        bytes.withUnsafeBytes { raw in
            method.withCString { methodPointer in
                invokeFunction(
                    instance, callID, methodPointer, raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                    payload.count, PluginCalls.completion, UnsafeMutableRawPointer(bitPattern: UInt(callID))
                )
            }
        }
    }

    /// Asks the plugin to stop the call `callID` (a plugin without `cancel` just finishes it).
    func cancel(_ callID: UInt64) {
        cancelFunction?(instance, callID)
    }

    /// The instance's host services (their send ledger tells whether a call may have reached the provider).
    var sends: SendLedger { bridge.sends }
}
