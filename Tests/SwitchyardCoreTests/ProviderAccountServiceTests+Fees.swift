import Foundation
import SwitchyardDomainTestSupport
import Testing

@testable import SwitchyardCore

/// Fee models on accounts: kept as given when within bounds, refused with a stable code otherwise.
extension ProviderAccountServiceTests {
    @Test func feesAreStoredOnCreateReplacedOnUpdateAndCheckedBothTimes() async throws {
        var create = new()
        create.fees = ["EUR": FeeModel(fixed: 25, basisPoints: 180)]
        let account = try await service.create(tenant: tenant, create, actor: "operator")
        #expect(try await service.account(tenant: tenant, id: account.id).fees == create.fees)
        let updated = try await service.update(
            account, .init(fees: ["JPY": FeeModel(fixed: 30, basisPoints: 0)]), actor: "operator")
        #expect(updated.fees == ["JPY": FeeModel(fixed: 30, basisPoints: 0)])
        #expect(await repository.changes.last?.fields == ["fees"])

        let refused: [([String: FeeModel], ErrorCode)] = [
            (["XXX": FeeModel(fixed: 1, basisPoints: 1)], .invalidCurrency),
            (["usd": FeeModel(fixed: 1, basisPoints: 1)], .invalidCurrency),
            (["USD": FeeModel(fixed: -1, basisPoints: 1)], .invalidField),
            (["USD": FeeModel(fixed: FeeModel.maximumFixed + 1, basisPoints: 1)], .invalidField),
            (["USD": FeeModel(fixed: 0, basisPoints: -1)], .invalidField),
            (["USD": FeeModel(fixed: 0, basisPoints: FeeModel.maximumBasisPoints + 1)], .invalidField),
        ]
        for (fees, code) in refused {
            await expectCoreError(code) {
                _ = try await service.update(updated, .init(fees: fees), actor: "operator")
            }
            var bad = new()
            bad.fees = fees
            await expectCoreError(code) { _ = try await service.create(tenant: tenant, bad, actor: "operator") }
        }
        // At the bounds is fine; one currency past the limit is not.
        let edge = ["USD": FeeModel(fixed: FeeModel.maximumFixed, basisPoints: FeeModel.maximumBasisPoints)]
        #expect(try await service.update(updated, .init(fees: edge), actor: "operator").fees == edge)
        let codes = [
            "USD", "EUR", "GBP", "JPY", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "RON", "BGN",
            "TRY", "AUD", "NZD", "CAD", "MXN", "BRL", "ARS", "CLP", "COP", "PEN", "UYU", "ZAR", "EGP", "MAD", "NGN",
            "KES", "INR", "PKR", "BDT", "LKR", "THB", "VND", "IDR", "MYR", "SGD", "PHP", "HKD", "TWD", "KRW", "CNY",
            "AED", "SAR", "QAR", "KWD", "BHD", "OMR", "JOD", "ILS",
        ]
        let many = Dictionary(uniqueKeysWithValues: codes.map { ($0, FeeModel(fixed: 1, basisPoints: 1)) })
        #expect(many.count == ProviderAccountService.maximumFeeCurrencies + 1)
        await expectCoreError(.invalidField) {
            _ = try await service.update(updated, .init(fees: many), actor: "operator")
        }
        #expect(try await service.account(tenant: tenant, id: account.id).fees == edge)
    }
}
