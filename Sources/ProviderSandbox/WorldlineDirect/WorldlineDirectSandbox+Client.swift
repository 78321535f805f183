import Foundation
import Hummingbird
import SwitchyardCrypto

extension WorldlineDirectSandbox {
    private struct ProductList: Encodable {
        struct Product: Encodable {
            struct DisplayHints: Encodable {
                var displayOrder: Int
                var label: String
                var logo: String
            }
            struct Field: Encodable {
                var id: String
                var type: String
            }
            var id: Int
            var paymentMethod = "card"
            var paymentProductGroup = "cards"
            var allowsRecurring = true
            var allowsTokenization = true
            var usesRedirectionTo3rdParty = false
            var displayHints: DisplayHints
            var fields: [Field]
        }
        var paymentProducts: [Product]
    }

    /// Client API of OnlinePaymentsKit, mounted at `client/v1` (and `client/client/v1` for SDKs that
    /// append `client/` to a `clientApiUrl` already ending in `/client`).
    func addClientRoutes(to group: RouterGroup<SandboxRequestContext>) {
        for prefix in ["client/v1", "client/client/v1"] {
            group.get("\(prefix)/:customerId/crypto/publickey") { request, context in
                await client(request, context) {
                    let key = try await state.rsaKey()
                    return WorldlineDirectAnswer(
                        WDPublicKeyResponse(keyId: key.id, publicKey: Base64.encode(key.privateKey.publicKey.spkiDER)))
                }
            }
            group.get("\(prefix)/:customerId/products") { request, context in
                await client(request, context) {
                    WorldlineDirectAnswer(Self.products(assetBase: baseURL(of: request) + "/" + name + "/assets"))
                }
            }
        }
    }

    private func client(
        _ request: Request,
        _ context: SandboxRequestContext,
        _ handler: () async throws -> WorldlineDirectAnswer
    ) async -> Response {
        do {
            let header = request.headers[.authorization] ?? ""
            guard header.hasPrefix("GCS v1Client:") else {
                throw WorldlineDirectSandboxError.authentication("missing v1Client authorization")
            }
            let sessionId = String(header.dropFirst("GCS v1Client:".count)).trimmingCharacters(in: .whitespaces)
            _ = try await state.clientSession(id: sessionId, customerId: context.parameters.get("customerId") ?? "")
            return try await handler().response
        } catch let error as WorldlineDirectSandboxError {
            return WorldlineDirectAnswer(error).response
        } catch {
            return WorldlineDirectAnswer(.internalError).response
        }
    }

    private static func products(assetBase: String) -> ProductList {
        let fields = [
            ProductList.Product.Field(id: "cardNumber", type: "numericstring"),
            .init(id: "expiryDate", type: "expirydate"),
            .init(id: "cvv", type: "numericstring"),
            .init(id: "cardholderName", type: "string"),
        ]
        let products = [(1, "VISA"), (3, "MasterCard"), (2, "American Express")].enumerated().map { index, product in
            ProductList.Product(
                id: product.0,
                displayHints: .init(displayOrder: index, label: product.1, logo: "\(assetBase)/\(product.0).png"),
                fields: fields)
        }
        return ProductList(paymentProducts: products)
    }
}
