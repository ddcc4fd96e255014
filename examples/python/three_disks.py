"""The 3-disk test of examples/three_disks.lua, driven from Python: the same calls in the same
order, so it gives the same numbers bit for bit (python/tests/test_model.py checks it).
Run: python3 examples/python/three_disks.py"""
import cairn


def run(m):
    """Build and run the 3-disk test in the (2D) model m."""
    m.contact.cmat_default(model="linear", kn=1.0, ks=1.0, fric=0.1)
    m.ball.create(id=1, rad=0.5, pos=(0.5, 0.5))
    m.ball.create(id=2, rad=0.5, pos=(1.5, 0.5))
    m.ball.create(id=3, rad=0.5, pos=(1.0, 1.3660254))
    m.ball.attribute(density=1.0, damp=0.7)
    m.wall.create(id=1, nodes=[(0.0, 0.0), (2.1, 0.0)])
    m.wall.create(id=2, nodes=[(0.0, 2.0), (0.0, 0.0)])
    m.wall.create(id=3, nodes=[(2.1, 0.0), (2.1, 2.0)])
    m.wall.create(id=4, nodes=[(2.1, 2.0), (0.0, 2.0)])
    m.model.timestep(fix=0.25)
    m.wall.vel(4, (0.0, -0.001))  # compress the three disks
    m.cycle(700)
    m.wall.vel(4, (0.0, 0.0))     # and let them reach equilibrium
    m.cycle(500)


if __name__ == "__main__":
    with cairn.Model(dim=2) as m:
        run(m)
        print(f"{'contact':28s} {'normal':>12s} {'shear':>12s} {'slip':>12s}")
        for cp in m.contact.list():
            f = m.contact.force(cp)
            print(f"{str(cp):28s} {f[0]:12.5e} {f[2]:12.5e} {m.contact.prop(cp, 'lin_slip'):12.0f}")
        for i, p in zip(m.balls.id, m.balls.pos):
            print(f"ball {i} at ({p[0]:.6f}, {p[1]:.6f})")
