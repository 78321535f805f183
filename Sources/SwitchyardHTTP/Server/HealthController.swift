import Foundation
import Hummingbird
import SwitchyardCore

/// Liveness, readiness and the OpenAPI document.
struct HealthController: Sendable {
    let probes: any OperationalProbes
    let registry: any PluginCatalog

    struct Readiness: Encodable {
        var status: String
        var database: Bool
        var plugins: Int
    }

    func register(on router: Router<AppContext>) {
        router.get("health") { _, _ in
            JSONIO.response(.ok, ["status": "ok"])
        }
        router.get("ready") { _, _ in
            let database = await probes.ping()
            let plugins = await registry.loadedCount()
            let ready = database && plugins > 0
            return JSONIO.response(
                ready ? .ok : .serviceUnavailable,
                Readiness(status: ready ? "ready" : "not_ready", database: database, plugins: plugins))
        }
        router.get("openapi.json") { _, _ in
            JSONIO.raw(.ok, try OpenAPIDocument.load())
        }
    }
}
