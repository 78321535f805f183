import CSwitchyardPlugin
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The C entry points of an exported table. None of them captures context: `create` has one
/// trampoline per registry slot, and the others find their state through the instance pointer.
enum ExportTrampolines {
    typealias CreateFunction = @convention(c) (UnsafePointer<sy_host_services>?) -> UnsafeMutableRawPointer?
    typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias InvokeFunction =
        @convention(c) (
            UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int, sy_completion_fn?,
            UnsafeMutableRawPointer?
        ) -> Void
    typealias CancelFunction = @convention(c) (UnsafeMutableRawPointer?, UInt64) -> Void

    /// One `create` per registry slot.
    static let create: [CreateFunction] = [
        { makeInstance(slot: 0, $0) }, { makeInstance(slot: 1, $0) }, { makeInstance(slot: 2, $0) },
        { makeInstance(slot: 3, $0) }, { makeInstance(slot: 4, $0) }, { makeInstance(slot: 5, $0) },
        { makeInstance(slot: 6, $0) }, { makeInstance(slot: 7, $0) }, { makeInstance(slot: 8, $0) },
        { makeInstance(slot: 9, $0) }, { makeInstance(slot: 10, $0) }, { makeInstance(slot: 11, $0) },
        { makeInstance(slot: 12, $0) }, { makeInstance(slot: 13, $0) }, { makeInstance(slot: 14, $0) },
        { makeInstance(slot: 15, $0) },
    ]

    static let destroy: DestroyFunction = { pointer in
        guard let pointer else { return }
        Unmanaged<PluginExportInstance>.fromOpaque(pointer).takeRetainedValue().cancelAll()
    }

    static let invoke: InvokeFunction = { pointer, callID, method, json, length, completion, context in
        guard let completion else { return }
        let sink = ExportCompletion(function: completion, context: context)
        guard let pointer else {
            sink.complete(PluginExportInstance.errorReply(.pluginError, message: "no plugin instance"))
            return
        }
        let methodName = method.map { String(cString: $0) } ?? ""
        let body = json.map { Data(bytes: $0, count: length) } ?? Data()
        Unmanaged<PluginExportInstance>.fromOpaque(pointer).takeUnretainedValue()
            .start(callID: callID, method: methodName, body: body, sink: sink)
    }

    static let cancel: CancelFunction = { pointer, callID in
        guard let pointer else { return }
        Unmanaged<PluginExportInstance>.fromOpaque(pointer).takeUnretainedValue().cancel(callID: callID)
    }

    private static func makeInstance(slot: Int, _ host: UnsafePointer<sy_host_services>?) -> UnsafeMutableRawPointer? {
        guard let host, let services = CHostServices(host), let factory = ExportRegistry.shared.factory(slot: slot)
        else {
            return nil
        }
        return Unmanaged.passRetained(factory(services)).toOpaque()
    }
}

/// A C completion and its context, called exactly once with a NUL-terminated JSON buffer.
struct ExportCompletion: @unchecked Sendable {
    let function: sy_completion_fn
    let context: UnsafeMutableRawPointer?

    func complete(_ json: Data) {
        var bytes = json
        bytes.append(0)
        bytes.withUnsafeBytes { raw in
            function(context, raw.baseAddress?.assumingMemoryBound(to: CChar.self), json.count)
        }
    }
}
