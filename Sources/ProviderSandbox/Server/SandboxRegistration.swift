import Foundation
import Logging

/// One provider's emulator as the rest of Switchyard sees it: which plugin talks to it, how the server
/// creates it, which `switchyard sandbox` options configure it and which demo account the embedded
/// default creates for it.
///
/// Each provider declares its registration in its own folder (`<Provider>/<Provider>Registration.swift`);
/// ``all`` lists them. The sandbox server, `switchyard sandbox`, the embedded default, its development
/// policy and the test stack all iterate that list, so none of them names a provider.
public struct SandboxRegistration: Sendable {
    /// Path segment of the emulator (`/<name>`, `/_sandbox/<name>`), e.g. `citcon`.
    public let name: String
    /// Id of the plugin whose accounts talk to this emulator (its manifest's `id`), e.g. `citcon`.
    public let pluginID: String
    /// The plugin's product in `Package.swift`, e.g. `CitconPlugin`.
    public let pluginProduct: String
    /// The options of `switchyard sandbox` that configure this emulator.
    public let options: [SandboxOption]
    let makeEmulator: @Sendable (SandboxConfiguration, SandboxNotifier, Logger) -> any SandboxEmulator
    let check: @Sendable (SandboxConfiguration) throws(SandboxCommandLineError) -> Void
    let makeDemo: @Sendable (SandboxDemoSecrets) throws -> SandboxDemo
    let testStack: @Sendable (inout SandboxConfiguration) -> Void

    init<Emulator: RegisteredEmulator>(
        _ emulator: Emulator.Type, name: String, pluginID: String, pluginProduct: String, options: [SandboxOption],
        check: @escaping @Sendable (SandboxConfiguration) throws(SandboxCommandLineError) -> Void = { _ in },
        demo: @escaping @Sendable (SandboxDemoSecrets) throws -> SandboxDemo,
        testStack: @escaping @Sendable (inout SandboxConfiguration) -> Void
    ) {
        self.name = name
        self.pluginID = pluginID
        self.pluginProduct = pluginProduct
        self.options = options
        self.check = check
        self.makeDemo = demo
        self.testStack = testStack
        self.makeEmulator = { configuration, notifier, logger in
            Emulator(
                configuration: configuration[Emulator.Settings.self], clock: configuration.clock, notifier: notifier,
                logger: logger)
        }
    }

    /// The plugin's shared object as `swift build` names it, e.g. `libCitconPlugin.so`.
    public var pluginLibrary: String { "lib\(pluginProduct).so" }

    /// Adds the merchants of the end-to-end test stack to the emulator's settings in `configuration`.
    public func configureTestStack(_ configuration: inout SandboxConfiguration) {
        testStack(&configuration)
    }

    /// The demo merchant and account of the embedded default, with secrets kept by `secrets`.
    /// - Throws: what `secrets` throws when a secret cannot be read or written.
    public func demo(secrets: SandboxDemoSecrets) throws -> SandboxDemo {
        try makeDemo(secrets)
    }
}
