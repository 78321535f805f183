import Foundation

extension WorldlineSipsState {
    /// `checkoutInApp/orderInitialize`: reserves the `transactionReference` (`94` when it is taken) and
    /// creates an init context for one order. Nothing is charged.
    func orderInitialize(
        merchantId: String, fields: SipsFields, interfaceVersion: String, baseURL: String
    ) throws(SipsFailure) -> SipsAnswer {
        let operation = try fields.choice("sdkOperationName", SipsOperation.orders)
        let amount = try fields.amount("amount")
        let currencyCode = try fields.currencyCode()
        let captureMode = try fields.optionalString("captureMode") ?? "AUTHOR_CAPTURE"
        guard captureMode == "AUTHOR_CAPTURE" || captureMode == "VALIDATION" else { throw .format("captureMode") }
        let captureDay = try fields.optionalInteger("captureDay") ?? 0
        guard (0...99).contains(captureDay) else { throw .format("captureDay") }
        let reference = try fields.transactionReference()
        let automaticResponseUrl = try fields.optionalString("automaticResponseUrl")
        if let automaticResponseUrl, !Self.isHTTPURL(automaticResponseUrl) { throw .format("automaticResponseUrl") }
        let orderId = try fields.optionalString("orderId")
        if let orderId, orderId.count > 32 { throw .format("orderId") }
        let walletId = try fields.optionalString("merchantWalletId")
        if SipsOperation.walletOrders.contains(operation), walletId == nil { throw .format("merchantWalletId") }
        let context = InitContext(
            redirectionData: token(24), redirectionVersion: interfaceVersion, merchantId: merchantId,
            operation: operation, amount: amount, currencyCode: currencyCode, captureMode: captureMode,
            captureDay: captureDay, transactionReference: reference,
            orderChannel: try fields.optionalString("orderChannel") ?? "INAPP",
            returnContext: try fields.optionalString("returnContext"),
            customerId: try fields.optionalString("customerId"), orderId: orderId, merchantWalletId: walletId,
            automaticResponseUrl: automaticResponseUrl, expiresAt: now.addingTimeInterval(configuration.initLifetime))
        let referenceKey = Self.key(merchantId, reference)
        guard !references.contains(referenceKey) else { throw SipsFailure("94") }
        let answer = try initialized(context, baseURL: baseURL)
        references.insert(referenceKey)
        return answer
    }

    /// `walletInApp/walletInitialize`: an init context for wallet management by the app.
    func walletInitialize(
        merchantId: String, fields: SipsFields, interfaceVersion: String, baseURL: String
    ) throws(SipsFailure) -> SipsAnswer {
        let walletId = try fields.string("merchantWalletId")
        let operation = try fields.choice("sdkOperationName", SipsOperation.walletManagement)
        let context = InitContext(
            redirectionData: token(24), redirectionVersion: interfaceVersion, merchantId: merchantId,
            operation: operation, merchantWalletId: walletId,
            expiresAt: now.addingTimeInterval(configuration.initLifetime))
        return try initialized(context, baseURL: baseURL)
    }

    private func initialized(_ context: InitContext, baseURL: String) throws(SipsFailure) -> SipsAnswer {
        let publicKey: String
        do {
            publicKey = try publicKeyValue()
        } catch {
            throw SipsFailure("99")
        }
        inits[context.redirectionData] = context
        var body = SipsObject()
        body.set("redirectionStatusCode", "00")
        body.set("redirectionStatusMessage", "Initialisation successful")
        body.set("redirectionData", context.redirectionData)
        body.set("redirectionUrl", baseURL + "/sips/inapp")
        body.set("redirectionVersion", context.redirectionVersion)
        body.set("publicKeyValue", publicKey)
        return SipsAnswer(body)
    }

    static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil else { return false }
        return scheme == "http" || scheme == "https"
    }

    // MARK: App calls

    /// Finds the init context an app call names (`redirectionData` + `redirectionVersion`, or for
    /// `cardValidateAuthenticationAndOrder` the enrolment's `transactionContextData` +
    /// `transactionContextVersion`). Nil when the call names none (the merchant is then unknown).
    func contextID(for function: SipsAppFunction, fields: SipsFields) -> String? {
        if function == .cardValidateAuthenticationAndOrder {
            guard let data = try? fields.optionalString("transactionContextData") else { return nil }
            return enrollments[data]?.redirectionData
        }
        guard let data = try? fields.optionalString("redirectionData"), inits[data] != nil else { return nil }
        return data
    }

    /// The merchant of an init context.
    func merchantId(ofContext id: String) -> String? { inits[id]?.merchantId }

    /// Checks that an app call may use its init context: version echoed (`30`), not expired (`97`),
    /// the function matches the init's `sdkOperationName` (`12`), and no order was placed yet (`94`).
    func open(_ id: String, for function: SipsAppFunction, fields: SipsFields) throws(SipsFailure) -> InitContext {
        guard let context = inits[id] else { throw .format("redirectionData") }
        if function == .cardValidateAuthenticationAndOrder {
            let version = try fields.string("transactionContextVersion")
            guard version == Self.transactionContextVersion else { throw .format("transactionContextVersion") }
        } else {
            guard try fields.string("redirectionVersion") == context.redirectionVersion else {
                throw .format("redirectionVersion")
            }
        }
        guard context.expiresAt > now else { throw SipsFailure("97") }
        if let operation = function.operation, operation != context.operation { throw SipsFailure("12") }
        if SipsOperation.orders.contains(context.operation), context.used { throw SipsFailure("94") }
        return context
    }
}
