// Vote viewer bundle (browser). It renders the host's RunState; the full viewer arrives with the vote viewer work.

const root = document.getElementById('root');
if (root) root.textContent = 'MassGen vote viewer';
