extension Navigator where Route == AppRoute {
    /// A navigator of the platform's routes, rooted at ``AppRoute/home``.
    public convenience init(configuration: LinkConfiguration, path: [AppRoute] = []) {
        self.init(router: AppRoute.router(configuration: configuration), root: .home, path: path)
    }
}
